package dev.engram.store;

import dev.engram.memory.Memory;
import dev.engram.spi.IndexHit;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.StoredEmbedding;
import dev.engram.spi.VectorQuery;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * A child process for the multi-process tests: {@code <dir> <count> <prefix>}. Inserts {@code count}
 * memories through {@link EmbeddedStore}, printing {@code ack <id>} to stdout after each write
 * returns, then stores the memory's vector in a second write ({@code vack <id>}), the way background
 * embedding does. It catches the index up and searches for its own write by word and by vector; a
 * search that misses prints {@code miss <id>} or {@code vmiss <id>}. Ends with {@code done}.
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

    /** The model id the children's vectors are stored under. */
    public static final String MODEL = "child-model";

    /** The vector of write {@code i} of a child: 8 Gaussian components, the same in every JVM. */
    public static float[] vector(String prefix, int i) {
        Random random = new Random(prefix.hashCode() * 1_000_003L + i);
        float[] v = new float[8];
        for (int d = 0; d < v.length; d++) v[d] = (float) random.nextGaussian();
        return v;
    }

    /** The nearest memory to {@code vector} in zone procs, by the child model. */
    public static List<String> nearest(EmbeddedStore store, float[] vector) {
        return store.index().searchVector(new VectorQuery(vector, MODEL, Set.of("procs"), null, null, null, null, null, 1))
                .stream().map(IndexHit::id).toList();
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
                StoredEmbedding e = new StoredEmbedding(MODEL, vector(prefix, i));
                store.store().write(tx -> {
                    tx.putEmbedding(m.id(), e);
                    return null;
                });
                System.out.println("vack " + m.id());
                System.out.flush();
                store.index().catchUp();
                List<IndexHit> hits = store.index().search(IndexQuery.text(word(prefix, i), "procs", 5));
                if (hits.stream().noneMatch(h -> h.id().equals(m.id()))) System.out.println("miss " + m.id());
                if (!nearest(store, vector(prefix, i)).equals(List.of(m.id()))) System.out.println("vmiss " + m.id());
                if (i % 7 == 0) store.index().search(IndexQuery.text("shared", "procs", 20)); // broad concurrent search
            }
        }
        System.out.println("done");
        System.out.flush();
    }
}
