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
        assertEquals("ENGRAM_EMBEDDER (environment) 'bert' is not an embedder; use minilm, none, openai or onnx", e.getMessage());
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
    void noneMeansALexicalEngine() {
        assertNull(EmbedderSettings.from(Map.of("ENGRAM_EMBEDDER", "none")).start(Duration.ZERO));
    }
}
