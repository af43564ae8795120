package dev.engram.mcp.profile.nativeprofile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.engram.engine.Engine;
import dev.engram.engine.RememberCommand;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.tool.ToolAdapter;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.spi.MemoryStore;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every tool of the profile called with seeded random arguments: wrong types, missing and unknown
 * fields, huge, empty and blank strings, Unicode edge cases, query syntax, out-of-range numbers.
 * Whatever arrives, a call returns a result (never throws); a refused call says why in a short
 * message that names no Java class and leaves the store exactly as it was; no call fails inside the
 * server. Rerun a failure with {@code -Dengram.seed=N}.
 */
class ToolFuzzTest {
    private static final int CALLS_PER_TOOL = 600;
    private static final Pattern JAVA_NAMES = Pattern.compile(
            "\\b(?:java|javax|jakarta|tools\\.jackson|io\\.modelcontextprotocol|dev\\.engram)\\.|\\w+Exception\\b|\\.java:\\d");
    private static final String[] STRINGS = {
        "", " ", "\t\n", "redis", "m_abcdefghij", "m_zzzzzzzzzz", "key-1", "Key With Spaces", "default", "all", "null",
        "1e999", "-1", "0", "true", "hard", "HARD", " soft ", "restore", "pin", "unpin", "link", "unlink", "fact",
        "warning", "Fact", "related", "caused_by", "caused-by", "tiny", "deep", "huge", "index", "ids", "hybrid",
        "7d", "0d", "24h", "2026-12-31", "1999-01-01", "2026-13-45", "src/**/*.java", "[", "**/[a-", "\\", "\"quoted\"",
        "a AND b OR NOT c", "\"exact phrase\"", "wild* fuzz~", "(unbalanced", "+-&&||!(){}[]^\"~*?:\\/", "레디스 비밀번호",
        "日本語のテキスト", "emoji 😀 text", "\u202Eright-to-left", "nul\u0000byte", "lone \uD800 surrogate",
        "\uDFFF", "zero\u200Bwidth", "x".repeat(9_000), "y".repeat(1 << 16), "tag,other;third", "a, b ,, c",
        "related:key-1", "bogus:key-1", "critical", "HIGH", "human", "inferred",
    };

    private final Random seedSource = new Random(Long.getLong("engram.seed", 20261201L));

    @Test
    void everyToolAnswersEveryInputWithAResultAndRefusalsWriteNothing() {
        long seed = seedSource.nextLong();
        Random random = new Random(seed);
        MemoryStore store = new InMemoryMemoryStore();
        Engine engine = new Engine(store, new InMemorySearchIndex(store), Clock.systemUTC());
        engine.remember(RememberCommand.builder("Redis in prod needs AUTH; the password is in the vault").key("key-1")
                .tags(List.of("redis")).build());
        engine.remember(RememberCommand.of("Deploys go out on Tuesdays after the freeze"));
        ToolProfile profile = NativeProfile.create(ProfileContext.of(engine, "default"),
                JsonText.standard());
        int refused = 0;
        int accepted = 0;
        for (ToolHandler tool : profile.tools()) {
            List<String> names = propertyNames(tool);
            for (int i = 0; i < CALLS_PER_TOOL; i++) {
                Map<String, Object> args = randomArguments(random, names);
                long before = store.headSeq();
                long countBefore = store.count();
                CallToolResult result;
                try {
                    result = ToolAdapter.call(tool, args);
                } catch (RuntimeException e) {
                    throw new AssertionError("seed " + seed + ": " + tool.definition().name() + " threw for " + shown(args), e);
                }
                String text = text(result);
                String where = "seed " + seed + ", " + tool.definition().name() + " " + shown(args) + " -> " + shorten(text);
                assertNotNull(result.isError(), where);
                assertFalse(text.contains("failed inside the server"), where);
                if (result.isError()) {
                    refused++;
                    assertFalse(text.isBlank(), where);
                    assertTrue(text.length() < 1_000, "a refusal of " + text.length() + " chars: " + where);
                    assertFalse(JAVA_NAMES.matcher(text).find(), where);
                    assertEquals(before, store.headSeq(), "a refused call wrote: " + where);
                    assertEquals(countBefore, store.count(), "a refused call changed the count: " + where);
                } else {
                    accepted++;
                }
            }
        }
        // the generator must reach both sides, or the test proves nothing
        assertTrue(refused > 1_000 && accepted > 200, "refused " + refused + ", accepted " + accepted);
    }

    @SuppressWarnings("unchecked")
    private static List<String> propertyNames(ToolHandler tool) {
        Object props = tool.definition().inputSchema().get("properties");
        return props instanceof Map<?, ?> m ? new ArrayList<>(((Map<String, Object>) m).keySet()) : List.of();
    }

    private static Map<String, Object> randomArguments(Random random, List<String> names) {
        Map<String, Object> args = new LinkedHashMap<>();
        for (String name : names) {
            if (random.nextInt(3) == 0) args.put(name, randomValue(random, 0));
        }
        if (random.nextInt(12) == 0) args.put(random.nextBoolean() ? "unknown_field" : "x".repeat(5_000), "v");
        return args;
    }

    private static Object randomValue(Random random, int depth) {
        return switch (random.nextInt(depth > 2 ? 6 : 9)) {
            case 0, 1, 2 -> STRINGS[random.nextInt(STRINGS.length)];
            case 3 -> random.nextInt(5) == 0 ? Long.MAX_VALUE : random.nextInt(41) - 10;
            case 4 -> random.nextBoolean();
            case 5 -> random.nextInt(3) == 0 ? 1.5e300 : random.nextDouble() * 10;
            case 6 -> {
                List<Object> list = new ArrayList<>();
                int n = random.nextInt(random.nextInt(10) == 0 ? 80 : 4);
                for (int i = 0; i < n; i++) list.add(randomValue(random, depth + 1));
                yield list;
            }
            case 7 -> {
                Map<String, Object> map = new HashMap<>();
                map.put(STRINGS[random.nextInt(STRINGS.length)], randomValue(random, depth + 1));
                yield map;
            }
            default -> null;
        };
    }

    private static String text(CallToolResult result) {
        if (result.content() == null || result.content().isEmpty()) fail("a result without content");
        return result.content().get(0) instanceof TextContent t ? t.text() : "";
    }

    private static String shown(Map<String, Object> args) {
        return shorten(String.valueOf(args));
    }

    private static String shorten(String s) {
        return s.length() > 300 ? s.substring(0, 300) + "…(" + s.length() + ")" : s;
    }
}
