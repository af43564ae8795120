package dev.engram.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Issue 15: the engine prices results through the caller's {@link ResultCost}, never by importing a
 * renderer, and presentation lives with the profiles: nothing in engram-core renders.
 */
class EngineKnowsNoRendererTest {
    /** A renderer package anywhere (the old {@code dev.engram.render}, a profile's) or a renderer class by name. */
    private static final Pattern RENDERER = Pattern.compile(
            "dev\\.engram\\.render\\b|dev\\.engram\\.mcp\\b|\\b\\w*Renderers?\\b|\\bTokenEstimate\\b");

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

    @Test
    void nothingInCoreImportsOrDefinesARenderer() throws IOException {
        Path main = Path.of("src/main/java");
        assertTrue(Files.isDirectory(main.resolve("dev/engram/engine")), "run from engram-core: " + main.toAbsolutePath());
        assertFalse(Files.exists(main.resolve("dev/engram/render")), "the render package left the engine module");
        try (Stream<Path> files = Files.walk(main)) {
            List<String> offenders = files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> RENDERER.matcher(code(read(p))).find())
                    .map(p -> main.relativize(p).toString()).sorted().toList();
            assertEquals(List.of(), offenders, "core sources naming a renderer or a profile package");
        }
    }

    @Test
    void thePatternCatchesWhatItGuardsAgainst() {
        for (String line : List.of("import dev.engram.render.TextRenderer;", "import dev.engram.mcp.profile.nativeprofile.TextRenderer;",
                "private final StructuredRenderer s;", "int t = TokenEstimate.of(x);", "Renderers r;")) {
            assertTrue(RENDERER.matcher(line).find(), line);
        }
        assertFalse(RENDERER.matcher("/** priced by the caller's ResultCost */ int recalled(RecalledMemory r);").find());
    }

    /** Code without comments: a doc comment may say why no renderer is here. */
    private static String code(String source) {
        return source.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\n]*", "");
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
