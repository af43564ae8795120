package dev.engram.store;

import dev.engram.crypto.FieldSealer;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The in-memory index of an encrypted store, kept between runs as one sealed file
 * ({@code <store>/index.sealed}: every Lucene file of the last commit, AES-256-GCM under the store's
 * key), so a start loads it and catches up from its commit instead of re-indexing every memory and
 * vector (measured in docs/benchmarks.md). Derived data only: a missing, stale or unreadable snapshot
 * costs a full rebuild, never a memory. Written at close, atomically (temp file, then rename).
 */
final class SealedIndexSnapshot {
    static final String FILE = "index.sealed";
    private static final Logger log = LoggerFactory.getLogger(SealedIndexSnapshot.class);
    private static final int FORMAT = 1;

    private SealedIndexSnapshot() {
    }

    /** A directory whose close() leaves the files in memory, so the last commit can be saved after the index closes. */
    static Directory keptOpen(ByteBuffersDirectory dir) {
        return new FilterDirectory(dir) {
            @Override
            public void close() {
                // the snapshot reads the files after the index is closed; EmbeddedStore closes dir itself
            }
        };
    }

    /** The snapshot's files in a new in-memory directory; empty when there is none or it does not open. */
    static ByteBuffersDirectory load(Path storeDir, FieldSealer sealer) {
        ByteBuffersDirectory dir = new ByteBuffersDirectory();
        Path file = storeDir.resolve(FILE);
        if (!Files.isRegularFile(file)) return dir;
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(sealer.openBytes(Files.readAllBytes(file))))) {
            if (in.readInt() != FORMAT) throw new IOException("unknown snapshot format");
            int files = in.readInt();
            for (int i = 0; i < files; i++) {
                String name = in.readUTF();
                byte[] data = new byte[in.readInt()];
                in.readFully(data);
                try (IndexOutput out = dir.createOutput(name, IOContext.DEFAULT)) {
                    out.writeBytes(data, data.length);
                }
            }
            return dir;
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            log.warn("store {}: the sealed index snapshot does not open ({}); rebuilding the index from the record", storeDir, e.toString());
            org.apache.lucene.util.IOUtils.closeWhileHandlingException(dir);
            return new ByteBuffersDirectory();
        }
    }

    /** The files of {@code dir} now: a commit always writes a new segments_N, so an equal listing means no commit since. */
    static java.util.List<String> listing(Directory dir) {
        try {
            return java.util.List.of(dir.listAll());
        } catch (IOException e) {
            return java.util.List.of();
        }
    }

    static void save(Path storeDir, ByteBuffersDirectory dir, FieldSealer sealer) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            String[] names = dir.listAll();
            out.writeInt(FORMAT);
            out.writeInt(names.length);
            for (String name : names) {
                try (IndexInput in = dir.openInput(name, IOContext.READONCE)) {
                    byte[] data = new byte[Math.toIntExact(in.length())];
                    in.readBytes(data, 0, data.length);
                    out.writeUTF(name);
                    out.writeInt(data.length);
                    out.write(data);
                }
            }
        }
        Path file = storeDir.resolve(FILE);
        Path tmp = storeDir.resolve(FILE + "." + ProcessHandle.current().pid() + ".tmp");
        Files.write(tmp, sealer.sealBytes(bytes.toByteArray()));
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    static void delete(Path storeDir) throws IOException {
        Files.deleteIfExists(storeDir.resolve(FILE));
    }
}
