package dev.engram.mcp.server;

import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the guard's answers to refused lines on a thread of its own, under the monitor the SDK
 * writes its messages under, so lines never interleave. Not on the reader thread: a client that
 * writes many bad lines before it reads anything would fill stdout and stop the reader, and with it
 * the client. At most {@link #MAX_PENDING} answers wait; past that they are dropped (and logged), so a
 * client that never reads cannot make the server hold unbounded memory.
 */
final class RefusalWriter implements GuardedStdin.Replies {
    private static final Logger log = LoggerFactory.getLogger(RefusalWriter.class);
    static final int MAX_PENDING = 10_000;

    private final Object monitor;
    private final OutputStream out;
    private final ExecutorService writer = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(MAX_PENDING), r -> {
                Thread t = new Thread(r, "engram-stdio-refusals");
                t.setDaemon(true);
                return t;
            }, (task, pool) -> log.warn("dropped the answer to a refused line: {} answers are waiting for a client"
                    + " that does not read", MAX_PENDING));

    RefusalWriter(Object monitor, OutputStream out) {
        this.monitor = monitor;
        this.out = out;
    }

    @Override
    public void write(byte[] line) {
        writer.execute(() -> {
            try {
                synchronized (monitor) {
                    out.write(line);
                    out.write('\n');
                    out.flush();
                }
            } catch (IOException e) {
                log.debug("stdout closed while answering a refused line: {}", e.getMessage());
            }
        });
    }
}
