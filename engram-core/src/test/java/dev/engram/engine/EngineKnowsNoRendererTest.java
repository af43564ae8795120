package dev.engram.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Issue 15: the engine prices results through the caller's {@link ResultCost}, never by importing a renderer. */
class EngineKnowsNoRendererTest {
    @Test
    void noEngineSourceMentionsTheRenderPackage() throws IOException {
        Path engine = Path.of("src/main/java/dev/engram/engine");
        assertTrue(Files.isDirectory(engine), "run from the engram-core module directory: " + engine.toAbsolutePath());
        try (Stream<Path> files = Files.list(engine)) {
            List<String> offenders = files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> read(p).contains("dev.engram.render")).map(p -> p.getFileName().toString()).toList();
            assertEquals(List.of(), offenders);
        }
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
