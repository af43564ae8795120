package dev.engram.store;

import dev.engram.memory.Memory;
import dev.engram.spi.IndexHit;
import dev.engram.spi.IndexQuery;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;

/**
 * A child process for the multi-process tests: {@code <dir> <count> <prefix>}. Inserts {@code count}
 * memories through {@link EmbeddedStore}, printing {@code ack <id>} to stdout after each write
 * returns, catches the index up and searches for its own write; a search that misses prints
 * {@code miss <id>}. Ends with {@code done}.
 */
public final class ChildWriterMain {
    private ChildWriterMain() {
    }

    /** Id of write {@code i} of a child: m_ + prefix letter + 9 base32 chars. */
    public static String id(String prefix, int i) {
        String alphabet = "abcdefghijklmnopqrstuvwxyz234567";
        char[] c = new char[9];
        int v = i;
        for (int k = 8; k >= 0; k--) {
            c[k] = alphabet.charAt(v & 31);
            v >>>= 5;
        }
        return "m_" + prefix + new String(c);
    }

    /**
     * A word that occurs in write {@code i} of this child only. Letters only: Nori splits a token at a
     * letter/digit boundary, so "uniq7" would also match every "uniq" word.
     */
    public static String word(String prefix, int i) {
        StringBuilder sb = new StringBuilder("uniq").append(prefix).append('x');
        for (char c : Integer.toString(i).toCharArray()) sb.append((char) ('a' + (c - '0')));
        return sb.toString();
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        int count = Integer.parseInt(args[1]);
        String prefix = args[2];
        try (EmbeddedStore store = EmbeddedStore.open(dir, Clock.systemUTC())) {
            for (int i = 0; i < count; i++) {
                Instant now = Instant.now();
                Memory m = Memory.builder().id(id(prefix, i)).key("child-" + prefix + "-" + i).zone("procs")
                        .content("Write " + i + " of child " + prefix + " carries " + word(prefix, i) + " shared")
                        .createdAt(now).updatedAt(now).build();
                store.store().write(tx -> {
                    tx.insert(m);
                    return null;
                });
                System.out.println("ack " + m.id());
                System.out.flush();
                store.index().catchUp();
                List<IndexHit> hits = store.index().search(IndexQuery.text(word(prefix, i), "procs", 5));
                if (hits.stream().noneMatch(h -> h.id().equals(m.id()))) System.out.println("miss " + m.id());
                if (i % 7 == 0) store.index().search(IndexQuery.text("shared", "procs", 20)); // broad concurrent search
            }
        }
        System.out.println("done");
        System.out.flush();
    }
}
