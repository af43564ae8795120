package dev.engram.mcp.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.engram.engine.Engine;
import dev.engram.engine.RememberCommand;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.toon.ToonProfile;
import dev.engram.mcp.tool.ToolAdapter;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.spi.MemoryStore;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every tool of every registered profile called with seeded random arguments: wrong types, missing and unknown
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
        // other profiles' words: toon categories, Memento types and relations, entity and relation names
        "decision", "bug", "pattern", "knowledge", "preference", "error", "procedure", "episode", "resolved_by",
        "contradicts", "Alice", "works_at", "person", "m_abcdefghij;key-1", "key-1 m_zzzzzzzzzz", "src/Main.java",
    };

    private final Random seedSource = new Random(Long.getLong("engram.seed", 20261201L));

    static List<String> profiles() {
        return ProfileRegistry.standard().names();
    }

    @ParameterizedTest
    @MethodSource("profiles")
    void everyToolAnswersEveryInputWithAResultAndRefusalsWriteNothing(String name, @TempDir Path dir) {
        long seed = seedSource.nextLong() ^ name.hashCode();
        Random random = new Random(seed);
        MemoryStore store = new InMemoryMemoryStore();
        Engine engine = new Engine(store, new InMemorySearchIndex(store), Clock.systemUTC());
        String first = engine.remember(RememberCommand.builder("Redis in prod needs AUTH; the password is in the vault").key("key-1")
                .tags(List.of("redis")).build()).memory().id();
        String second = engine.remember(RememberCommand.of("Deploys go out on Tuesdays after the freeze")).memory().id();
        // one archived and one pinned memory, and a link: the states in which a later step of a call may refuse
        String archived = engine.remember(RememberCommand.builder("The old queue ran on RabbitMQ").key("old-queue").build()).memory().id();
        engine.forget(new dev.engram.engine.ForgetCommand(archived, "default", dev.engram.engine.ForgetAction.SOFT));
        engine.pin(new dev.engram.engine.PinCommand(second, "default", 2));
        engine.link(new dev.engram.engine.LinkCommand(first, second, dev.engram.memory.EdgeType.RELATED, "default", false));
        // the stored memories' ids too, so calls also reach the paths that find what they name
        List<String> strings = new ArrayList<>(List.of(STRINGS));
        strings.addAll(List.of(first, second, archived, first, second, "old-queue", first + "," + second, first + " " + second,
                archived + ";" + first));
        // toon's tools that touch files stay in the test's folder; a gist call without a token is refused before any request
        ProfileContext context = ProfileContext.of(engine, "default").withSettings(Map.of(
                ToonProfile.PROJECT_SETTING, dir.toString(),
                ToonProfile.GLOBAL_FILE_SETTING, dir.resolve("global.json").toString(),
                ToonProfile.MEMORY_DIR_SETTING, dir.resolve("memory").toString(),
                ToonProfile.GIST_API_SETTING, "http://127.0.0.1:9"));
        ToolProfile profile = ProfileRegistry.standard().create(name, context, JsonText.standard());
        int refused = 0;
        int accepted = 0;
        // every kind of failure of every tool, the first call that showed it: one run names them all
        Map<String, String> failures = new LinkedHashMap<>();
        for (ToolHandler tool : profile.tools()) {
            String toolName = tool.definition().name();
            List<String> names = propertyNames(tool);
            for (int i = 0; i < CALLS_PER_TOOL; i++) {
                Map<String, Object> args = randomArguments(random, names, strings);
                long before = store.headSeq();
                long countBefore = store.count();
                CallToolResult result;
                try {
                    result = ToolAdapter.call(tool, args);
                } catch (RuntimeException e) {
                    throw new AssertionError(name + ", seed " + seed + ": " + toolName + " threw for " + shown(args), e);
                }
                String text = text(result);
                String failure = null;
                if (result.isError() == null) failure = "no isError";
                else if (text.contains("failed inside the server")) failure = "failed inside the server";
                else if (result.isError()) {
                    refused++;
                    if (text.isBlank()) failure = "a blank refusal";
                    else if (text.length() >= 1_000) failure = "a refusal of " + text.length() + " chars";
                    else if (JAVA_NAMES.matcher(text).find()) failure = "a refusal naming Java";
                    else if (before != store.headSeq() || countBefore != store.count()) failure = "a refusal that wrote";
                } else {
                    accepted++;
                }
                if (failure != null) failures.putIfAbsent(toolName + ": " + failure, shown(args) + " -> " + shorten(text));
            }
        }
        StringBuilder report = new StringBuilder();
        failures.forEach((what, call) -> report.append("\n").append(what).append(" for ").append(call));
        assertTrue(failures.isEmpty(), name + ", seed " + seed + ":" + report);
        int calls = refused + accepted;
        assertTrue(refused > calls / 10 && accepted > calls / 40, name + ": refused " + refused + ", accepted " + accepted);
    }

    @SuppressWarnings("unchecked")
    private static List<String> propertyNames(ToolHandler tool) {
        Object props = tool.definition().inputSchema().get("properties");
        return props instanceof Map<?, ?> m ? new ArrayList<>(((Map<String, Object>) m).keySet()) : List.of();
    }

    private static Map<String, Object> randomArguments(Random random, List<String> names, List<String> strings) {
        Map<String, Object> args = new LinkedHashMap<>();
        for (String name : names) {
            if (random.nextInt(3) == 0) args.put(name, randomValue(random, 0, strings));
        }
        if (random.nextInt(12) == 0) args.put(random.nextBoolean() ? "unknown_field" : "x".repeat(5_000), "v");
        return args;
    }

    private static Object randomValue(Random random, int depth, List<String> strings) {
        return switch (random.nextInt(depth > 2 ? 6 : 9)) {
            case 0, 1, 2 -> strings.get(random.nextInt(strings.size()));
            case 3 -> random.nextInt(5) == 0 ? Long.MAX_VALUE : random.nextInt(41) - 10;
            case 4 -> random.nextBoolean();
            case 5 -> random.nextInt(3) == 0 ? 1.5e300 : random.nextDouble() * 10;
            case 6 -> {
                List<Object> list = new ArrayList<>();
                int n = random.nextInt(random.nextInt(10) == 0 ? 80 : 4);
                for (int i = 0; i < n; i++) list.add(randomValue(random, depth + 1, strings));
                yield list;
            }
            case 7 -> {
                Map<String, Object> map = new HashMap<>();
                map.put(strings.get(random.nextInt(strings.size())), randomValue(random, depth + 1, strings));
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
