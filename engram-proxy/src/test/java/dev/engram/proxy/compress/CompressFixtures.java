package dev.engram.proxy.compress;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/** Texts of known shape and the pieces strategies need, shared by the compression tests. */
public final class CompressFixtures {
    public static final McpJsonMapper MAPPER = McpJsonDefaults.getMapper();

    private CompressFixtures() {
    }

    public static String markdown(int sections, int paragraphsEach) {
        StringBuilder sb = new StringBuilder("# Guide\n\nIntro line.\n\n");
        for (int i = 0; i < sections; i++) {
            sb.append("## Section ").append(i).append("\n\n");
            for (int p = 0; p < paragraphsEach; p++) {
                sb.append("Paragraph ").append(p).append(" of section ").append(i)
                        .append(" says something useful about step ").append(i).append('.').append(p).append(".\n\n");
            }
        }
        return sb.toString();
    }

    public static String prose(int paragraphs) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < paragraphs; i++) {
            sb.append("Note ").append(i).append(": plain prose with no structure at all, long enough to need chunks.\n\n");
        }
        return sb.toString();
    }

    public static String jsonArray(int items) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < items; i++) {
            if (i > 0) sb.append(',');
            sb.append("{\"id\":").append(i).append(",\"name\":\"item-").append(i)
                    .append("\",\"description\":\"a fairly long description of item ").append(i).append(" for padding\"}");
        }
        return sb.append(']').toString();
    }

    public static String nestedJson(int groups, int keysEach) {
        StringBuilder sb = new StringBuilder("{");
        for (int g = 0; g < groups; g++) {
            if (g > 0) sb.append(',');
            sb.append("\"group").append(g).append("\":{");
            for (int k = 0; k < keysEach; k++) {
                if (k > 0) sb.append(',');
                sb.append("\"key").append(k).append("\":\"value ").append(k).append(" of group ").append(g).append("\"");
            }
            sb.append('}');
        }
        return sb.append('}').toString();
    }

    static Supplier<String> keys() {
        AtomicInteger n = new AtomicInteger();
        return () -> String.format("k%011d", n.incrementAndGet());
    }

    public static OriginalStore store() {
        return new OriginalStore(Clock.systemUTC(), keys());
    }

    static CompressionInput input(String text, int budget) {
        ContentShape shape = ContentShape.of(text, MAPPER);
        return new CompressionInput(text, TextCleaner.clean(text), budget, "k00000000001", Sections.split(text), shape.json());
    }
}
