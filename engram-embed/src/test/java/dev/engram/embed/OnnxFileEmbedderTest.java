package dev.engram.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.EmbeddingException;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Loads the MiniLM files extracted from the in-jar model's resources, as a user would drop them in. */
class OnnxFileEmbedderTest {
    @TempDir
    Path dir;

    private Path extract(String resource) throws IOException {
        try (InputStream in = MiniLmEmbedder.class.getClassLoader().getResourceAsStream(resource)) {
            assertNotNull(in, "resource " + resource + " is not in the MiniLM jar");
            Path out = dir.resolve(resource);
            Files.copy(in, out);
            return out;
        }
    }

    @Test
    void aModelFileGivesTheSameVectorsAsTheInJarModel() throws IOException {
        Path model = extract("all-minilm-l6-v2-q.onnx");
        Path tokenizer = extract("all-minilm-l6-v2-q-tokenizer.json");
        OnnxFileEmbedder file = new OnnxFileEmbedder("user:minilm-q", model, tokenizer);
        assertEquals("user:minilm-q", file.modelId());
        assertEquals(384, file.dimensions());

        float[] fromFile = file.embed("The deploy script needs a password file");
        assertEquals(1.0, VectorMath.norm(fromFile), 1e-4);
        float[] inJar = new MiniLmEmbedder().embed("The deploy script needs a password file");
        assertEquals(1.0, VectorMath.dot(fromFile, inJar), 1e-3);
        assertEquals(2, file.embedAll(java.util.List.of("a", "b")).size());
    }

    @Test
    void clsPoolingTakesTheFirstTokenInsteadOfTheMean() throws IOException {
        Path model = extract("all-minilm-l6-v2-q.onnx");
        Path tokenizer = extract("all-minilm-l6-v2-q-tokenizer.json");
        String text = "The deploy script needs a password file";
        float[] mean = new OnnxFileEmbedder("user:mean", model, tokenizer).embed(text);
        OnnxFileEmbedder cls = new OnnxFileEmbedder("user:cls", model, tokenizer, PoolingMode.CLS);
        float[] first = cls.embed(text);
        assertEquals(1.0, VectorMath.norm(first), 1e-4);
        assertTrue(VectorMath.dot(mean, first) < 0.95, "CLS and mean pooling must give different vectors: cosine "
                + VectorMath.dot(mean, first));
        assertEquals(1.0, VectorMath.dot(first, cls.embed(text)), 1e-5);
    }

    @Test
    void aMissingFileIsNamedInTheError() {
        Path missing = dir.resolve("nope.onnx");
        EmbeddingException e = assertThrows(EmbeddingException.class,
                () -> new OnnxFileEmbedder("user:x", missing, dir.resolve("tokenizer.json")));
        assertTrue(e.getMessage().contains("model file") && e.getMessage().contains("nope.onnx"), e.getMessage());
    }

    @Test
    void aFileThatIsNotAModelFailsWithTheFileNamed() throws IOException {
        Path bogus = Files.writeString(dir.resolve("bogus.onnx"), "not a model");
        Path tokenizer = extract("all-minilm-l6-v2-q-tokenizer.json");
        EmbeddingException e = assertThrows(EmbeddingException.class, () -> new OnnxFileEmbedder("user:x", bogus, tokenizer));
        assertTrue(e.getMessage().contains("cannot load ONNX model") && e.getMessage().contains("bogus.onnx"), e.getMessage());
    }
}
