package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EmbedderSettingsTest {

    @Test
    void anUnknownEmbedderIsRefusedNamingTheChoices() {
        ConfigException e = assertThrows(ConfigException.class, () -> EmbedderSettings.from(Map.of("ENGRAM_EMBEDDER", "bert")));
        assertEquals("ENGRAM_EMBEDDER (environment) 'bert' is not an embedder; use e5, minilm, none, openai or onnx", e.getMessage());
    }

    @Test
    void anEndpointNeedsItsSettingsAtStartUp() {
        ConfigException dims = assertThrows(ConfigException.class,
                () -> EmbedderSettings.from(Map.of("ENGRAM_EMBEDDER", "openai")));
        assertEquals("ENGRAM_EMBED_DIMENSIONS (environment) is required when ENGRAM_EMBEDDER=openai", dims.getMessage());
        ConfigException bad = assertThrows(ConfigException.class, () -> EmbedderSettings.from(
                Map.of("ENGRAM_EMBEDDER", "onnx", "ENGRAM_EMBED_DIMENSIONS", "lots")));
        assertEquals("ENGRAM_EMBED_DIMENSIONS (environment) 'lots' is not a dimension count 1..8192", bad.getMessage());
        ConfigException url = assertThrows(ConfigException.class, () -> EmbedderSettings.from(
                Map.of("ENGRAM_EMBEDDER", "openai", "ENGRAM_EMBED_DIMENSIONS", "1536")).start(Duration.ZERO));
        assertEquals("ENGRAM_EMBED_URL (environment) is required when ENGRAM_EMBEDDER=openai", url.getMessage());
    }

    @Test
    void anUnknownPoolingIsRefusedAtStartUp() {
        ConfigException e = assertThrows(ConfigException.class, () -> EmbedderSettings.from(Map.of("ENGRAM_EMBEDDER", "onnx",
                "ENGRAM_EMBED_DIMENSIONS", "384", "ENGRAM_EMBED_POOLING", "max")));
        assertEquals("ENGRAM_EMBED_POOLING (environment) 'max' is not a pooling; use mean (sentence-transformers, e5) or cls (bge)",
                e.getMessage());
    }

    @Test
    void poolingAndPassagePrefixNameTheModelSoTheirVectorsAreNeverMixed() {
        Map<String, String> e5 = Map.of("ENGRAM_EMBEDDER", "onnx", "ENGRAM_EMBED_DIMENSIONS", "384",
                "ENGRAM_EMBED_ONNX", "/models/e5.onnx", "ENGRAM_EMBED_TOKENIZER", "/models/tokenizer.json",
                "ENGRAM_EMBED_QUERY_PREFIX", "query: ", "ENGRAM_EMBED_PASSAGE_PREFIX", "passage: ");
        // the files do not exist: loading fails in the background, but the id is known at once
        assertEquals("onnx:e5.onnx+passage:passage:", EmbedderSettings.from(e5).start(Duration.ofHours(1)).modelId());
        Map<String, String> bge = Map.of("ENGRAM_EMBEDDER", "onnx", "ENGRAM_EMBED_DIMENSIONS", "384",
                "ENGRAM_EMBED_ONNX", "/models/bge.onnx", "ENGRAM_EMBED_TOKENIZER", "/models/tokenizer.json",
                "ENGRAM_EMBED_POOLING", "CLS");
        assertEquals("onnx:bge.onnx:cls", EmbedderSettings.from(bge).start(Duration.ofHours(1)).modelId());
    }

    @Test
    void noneMeansALexicalEngine() {
        assertNull(EmbedderSettings.from(Map.of("ENGRAM_EMBEDDER", "none")).start(Duration.ZERO));
    }
}
