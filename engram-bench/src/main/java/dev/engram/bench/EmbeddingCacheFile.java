package dev.engram.bench;

import dev.engram.embed.ForwardingEmbedder;
import dev.engram.spi.Embedder;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Passage vectors kept in a file between runs of {@code latency --embedding-cache DIR}, so a store of 100k generated
 * memories (the same texts every run: the generator is seeded) is backfilled in seconds instead of a quarter of an
 * hour. Only the untimed backfill goes through it: timed remembers and every query are embedded by the model itself.
 * One file per model id; a vector is keyed by its exact text.
 */
final class EmbeddingCacheFile {
    private static final int MAGIC = 0x454d4331; // "EMC1"

    private final Path file;
    private final Embedder model;
    private final Map<String, float[]> vectors = new HashMap<>();
    private int added;

    private EmbeddingCacheFile(Path file, Embedder model) {
        this.file = file;
        this.model = model;
    }

    /** The cache of {@code model}'s vectors in {@code dir}; the file a previous run saved is read at the first use. */
    static EmbeddingCacheFile open(Path dir, Embedder model) throws IOException {
        Files.createDirectories(dir);
        String name = model.modelId().replaceAll("[^A-Za-z0-9._-]", "_") + ".vectors";
        return new EmbeddingCacheFile(dir.resolve(name), model);
    }

    /** Vectors held now: those read from the file and those embedded since, until {@link #save()}. */
    int size() {
        synchronized (vectors) {
            return vectors.size();
        }
    }

    /**
     * The model behind the cache: cached texts are answered from the file, the others embedded and kept. The file is read
     * now if nothing is held.
     */
    Embedder embedder() {
        synchronized (vectors) {
            if (vectors.isEmpty() && Files.exists(file)) load();
        }
        return new ForwardingEmbedder(model) {
            @Override
            public float[] embed(String text) {
                return embedAll(List.of(text)).get(0);
            }

            @Override
            public List<float[]> embedAll(List<String> texts) {
                List<String> missing;
                synchronized (vectors) {
                    missing = new ArrayList<>(new LinkedHashSet<>(texts.stream().filter(t -> !vectors.containsKey(t)).toList()));
                }
                List<float[]> computed = missing.isEmpty() ? List.of() : model.embedAll(missing);
                synchronized (vectors) {
                    for (int i = 0; i < missing.size(); i++) {
                        if (vectors.put(missing.get(i), computed.get(i)) == null) added++;
                    }
                    return texts.stream().map(vectors::get).toList();
                }
            }
        };
    }

    /**
     * Writes the file again when vectors were added (to a temporary file, then moved over the old one), and lets go of
     * every vector: the timed part of a run must not carry a heap the product would not have.
     */
    void save() throws IOException {
        synchronized (vectors) {
            if (added > 0) write();
            vectors.clear();
        }
    }

    private void write() throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 20))) {
            out.writeInt(MAGIC);
            out.writeInt(model.dimensions());
            out.writeInt(vectors.size());
            for (Map.Entry<String, float[]> e : vectors.entrySet()) {
                byte[] text = e.getKey().getBytes(StandardCharsets.UTF_8);
                out.writeInt(text.length);
                out.write(text);
                for (float f : e.getValue()) out.writeFloat(f);
            }
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        added = 0;
    }

    private void load() {
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 20))) {
            int dims = model.dimensions();
            if (in.readInt() != MAGIC || in.readInt() != dims) {
                throw new IOException(file + " is not a vector cache of " + dims + " dimensions; delete it");
            }
            for (int n = in.readInt(); n > 0; n--) {
                byte[] text = in.readNBytes(in.readInt());
                float[] v = new float[dims];
                for (int i = 0; i < dims; i++) v[i] = in.readFloat();
                vectors.put(new String(text, StandardCharsets.UTF_8), v);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the vector cache " + file, e);
        }
    }
}
