package dev.engram.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `toonpeer` refuses bad flag values with exit 2 and a message naming the flag, before any server starts. */
class ToonPeerFlagsTest {
    @TempDir Path dir;

    /** A folder that looks like a built toon-memory checkout, and a file standing in for Engram's jar. */
    private String[] valid(String... more) throws Exception {
        Path toon = dir.resolve("toon");
        Files.createDirectories(toon.resolve("bin"));
        Files.writeString(toon.resolve("bin").resolve("toon-memory.js"), "// stand-in\n");
        Path jar = Files.writeString(dir.resolve("engram.jar"), "stand-in");
        List<String> args = new java.util.ArrayList<>(List.of("toonpeer", "--toon", toon.toString(), "--jar", jar.toString(),
                "--work-dir", dir.resolve("work").toString()));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    @Test
    void badValuesAreNamed() throws Exception {
        assertEquals("toonpeer: --sizes must be whole numbers >= 1, got [1000, 0]", BenchCli.refused(valid("--sizes", "1000,0")));
        assertEquals("toonpeer: --remembers must be >= 1, got 0", BenchCli.refused(valid("--remembers", "0")));
        assertEquals("toonpeer: --recalls must be >= 1, got -3", BenchCli.refused(valid("--recalls", "-3")));
        assertEquals("toonpeer: --warmup must be >= 0, got -1", BenchCli.refused(valid("--warmup", "-1")));
        assertEquals("toonpeer: --block must be >= 1, got 0", BenchCli.refused(valid("--block", "0")));
        assertEquals("toonpeer: --budget must be one of tiny, normal, deep (toon's recall budgets), got 'huge'",
                BenchCli.refused(valid("--budget", "huge")));
        assertEquals("toonpeer: --budget-tokens must be 0 (not sent) or 20..100000 (what both servers take), got 19",
                BenchCli.refused(valid("--budget-tokens", "19")));
        assertEquals("toonpeer: --shapes must be phrase, keyword or phrase,keyword, got 'sentence'",
                BenchCli.refused(valid("--shapes", "phrase,sentence")));
        assertEquals("toonpeer: --set-seconds must be >= 0 (0: no cap), got -60", BenchCli.refused(valid("--set-seconds", "-60")));
        assertTrue(BenchCli.refused(valid("--sizes", "1k")).contains("--sizes"), "picocli names a value it cannot convert");
    }

    @Test
    void theToonCheckoutAndTheJarMustExist() throws Exception {
        String noToon = BenchCli.refused("toonpeer", "--toon", dir.resolve("nowhere").toString());
        assertTrue(noToon.startsWith("toonpeer: --toon: ") && noToon.endsWith("not found; pass a toon-memory checkout and run"
                + " `npm ci && npm run build` there"), noToon);
        assertTrue(BenchCli.refused("toonpeer").contains("--toon"), "--toon is required");
        String[] args = valid();
        args[4] = dir.resolve("missing.jar").toString();
        String noJar = BenchCli.refused(args);
        assertTrue(noJar.startsWith("toonpeer: --jar: ") && noJar.contains("missing.jar not found"), noJar);
    }

    @Test
    void bothServersGetTheSameToonArguments() {
        SyntheticMemory m = new MemoryGenerator(3).next();
        var args = ToonPeer.rememberArguments(m, 41);
        assertEquals(ToonPeer.category(m.type()), args.get("category"));
        assertEquals(String.join(";", m.tags()), args.get("tags"));
        assertTrue(((String) args.get("key")).matches("[a-z0-9]+(-[a-z0-9]+)*-15"), (String) args.get("key"));
        assertEquals(m.content(), args.get("content"));
    }

    @Test
    void budgetTokensIsSentToBothServersOnlyWhenGiven() {
        var toon = new ToonPeer.Toon("node", Path.of("toon.js"), "normal", 0);
        var engram = new ToonPeer.EngramToon(Path.of("engram.jar"), List.of(), "none", "normal", 300);
        assertEquals(java.util.Map.of("query", "q", "budget", "normal"), toon.searchArguments("q"));
        assertEquals(java.util.Map.of("query", "q", "budget", "normal", "budget_tokens", 300), engram.searchArguments("q"));
    }

    @Test
    void theDataToonPreloadReadsBackAsTheSameMemories() throws Exception {
        List<SyntheticMemory> memories = PeerBench.memories(PeerBench.Corpus.CURRENT, 5, 30);
        ToonPeer.writeDataToon(dir, memories);
        var parsed = dev.engram.mcp.profile.toon.ToonFormat.parse(
                Files.readString(dir.resolve(".toon-memory/memory/data.toon")));
        assertEquals(30, parsed.entries().size());
        assertTrue(parsed.malformed().isEmpty(), parsed.malformed().toString());
        for (int i = 0; i < 30; i++) {
            assertEquals(memories.get(i).content(), parsed.entries().get(i).get("content"));
            assertEquals(ToonPeer.key(memories.get(i), i), parsed.entries().get(i).get("key"));
        }
        assertTrue(Files.readString(dir.resolve(".toon-memory/memory/config.json")).contains("\"maxEntries\": 1300"));
    }
}
