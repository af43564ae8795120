package dev.engram.mcp.jsonrpc;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a byte stream into newline-delimited lines of bounded length, for both ends of a stdio MCP
 * connection. A line longer than the limit is not kept: its first {@code maxLineBytes} bytes are,
 * and the rest is only counted ({@link #length()} then exceeds {@link #kept()}), so one huge message
 * costs bounded memory and the next line is read normally. The last line needs no newline.
 * Not thread-safe: one reader.
 */
public final class BoundedLines {
    private static final int CHUNK = 64 * 1024;
    private static final int KEPT_LINE_BUFFER = 1 << 20;
    /** How many of a too-long line's last bytes {@link #tail()} keeps. */
    public static final int TAIL_BYTES = 512;

    private final InputStream in;
    private final int maxLineBytes;
    private final byte[] chunk = new byte[CHUNK];
    private int chunkPos;
    private int chunkEnd;
    private boolean eof;
    private byte[] line = new byte[8192];
    private int kept;
    private long length;
    // the last bytes of a line too long to keep: a response's id may come last (the TypeScript SDK's do)
    private final byte[] tail = new byte[TAIL_BYTES];
    private int tailLen;

    public BoundedLines(InputStream in, int maxLineBytes) {
        this.in = in;
        this.maxLineBytes = maxLineBytes;
    }

    /** Reads the next line (without its newline); false once the stream has ended. */
    public boolean next() throws IOException {
        if (line.length > KEPT_LINE_BUFFER) line = new byte[8192]; // one huge message must not pin its buffer
        kept = 0;
        length = 0;
        tailLen = 0;
        while (true) {
            if (chunkPos == chunkEnd && !fill()) return length > 0;
            int nl = chunkPos;
            while (nl < chunkEnd && chunk[nl] != '\n') nl++;
            append(chunkPos, nl - chunkPos);
            chunkPos = nl < chunkEnd ? nl + 1 : chunkEnd;
            if (nl < chunkEnd) return true;
        }
    }

    /** The current line's bytes; valid up to {@link #kept()} until the next call of {@link #next()}. */
    public byte[] buffer() {
        return line;
    }

    /** How many bytes of the current line are in {@link #buffer()}. */
    public int kept() {
        return kept;
    }

    /** The current line's full length in bytes, kept or not. */
    public long length() {
        return length;
    }

    /** The last bytes (up to {@link #TAIL_BYTES}) of a line that was too long; empty otherwise. */
    public byte[] tail() {
        return Arrays.copyOf(tail, tailLen);
    }

    public boolean tooLong() {
        return length > kept;
    }

    public int maxLineBytes() {
        return maxLineBytes;
    }

    private void reserve(int extra) {
        if (kept + extra > line.length) line = Arrays.copyOf(line, Math.max(2 * line.length, kept + extra));
    }

    private void append(int off, int len) {
        length += len;
        int room = maxLineBytes - kept;
        int take = length - len > kept ? 0 : Math.min(len, room); // past the limit bytes are only counted
        if (take > 0) {
            reserve(take);
            System.arraycopy(chunk, off, line, kept, take);
            kept += take;
        }
        if (take < len) keepTail(off + take, len - take);
    }

    private void keepTail(int off, int len) {
        if (len >= TAIL_BYTES) {
            System.arraycopy(chunk, off + len - TAIL_BYTES, tail, 0, TAIL_BYTES);
            tailLen = TAIL_BYTES;
            return;
        }
        int drop = Math.max(0, tailLen + len - TAIL_BYTES);
        System.arraycopy(tail, drop, tail, 0, tailLen - drop);
        tailLen -= drop;
        System.arraycopy(chunk, off, tail, tailLen, len);
        tailLen += len;
    }

    private boolean fill() throws IOException {
        if (eof) return false;
        int n = in.read(chunk, 0, CHUNK);
        if (n < 0) {
            eof = true;
            return false;
        }
        chunkPos = 0;
        chunkEnd = n;
        return true;
    }

    public void close() throws IOException {
        in.close();
    }
}
