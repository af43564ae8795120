package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.mcp.http.HttpServerSettings;
import dev.engram.mcp.profile.nativeprofile.NativeProfile;
import dev.engram.mcp.profile.ProfileRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
    @TempDir
    Path dir;

    private GlobalOptions options(String store, boolean project, String zone) {
        GlobalOptions o = new GlobalOptions();
        o.store = store;
        o.project = project;
        if (zone != null) o.zones.add(zone);
        return o;
    }

    @Test
    void storeDirPrecedenceIsDefaultThenEnvironmentThenFlag() {
        Path home = dir.resolve("home");
        assertEquals(home.resolve(".local/share/engram"), new ConfigLoader(Map.of(), dir, home, "Linux").load(options(null, false, null)).storeDir());
        assertEquals(dir.resolve("env-store"), new ConfigLoader(Map.of("ENGRAM_HOME", "env-store"), dir, home, "Linux")
                .load(options(null, false, null)).storeDir());
        assertEquals(dir.resolve("flag-store"), new ConfigLoader(Map.of("ENGRAM_HOME", "env-store"), dir, home, "Linux")
                .load(options("flag-store", false, null)).storeDir());
        assertEquals(home.resolve("x"), new ConfigLoader(Map.of(), dir, home, "Linux").load(options("~/x", false, null)).storeDir());
    }

    @Test
    void projectUsesTheGitRootAboveTheWorkingDirectory() throws Exception {
        Path repo = dir.resolve("repo");
        Path deep = Files.createDirectories(repo.resolve("a/b"));
        Files.writeString(repo.resolve(".git"), "gitdir: elsewhere"); // a worktree's .git is a file
        assertEquals(repo.resolve(".engram-store"), new ConfigLoader(Map.of(), deep, dir, "Linux").load(options(null, true, null)).storeDir());
        assertEquals(repo, new ConfigLoader(Map.of(), deep, dir, "Linux").load(options(null, false, null)).projectRoot(),
                "tag inference reads the manifests at the git root");
        assertEquals(dir, new ConfigLoader(Map.of(), dir, dir, "Linux").load(options(null, false, null)).projectRoot(),
                "outside a repository, the working directory");
    }

    @Test
    void projectOutsideARepositoryFailsNamingTheFlag() {
        String m = assertThrows(ConfigException.class, () -> new ConfigLoader(Map.of(), dir, dir, "Linux")
                .load(options(null, true, null))).getMessage();
        assertTrue(m.startsWith("--project (flag) needs a git repository"), m);
    }

    @Test
    void storeAndProjectTogetherAreRefused() {
        assertEquals("--store (flag) and --project both name a store; pass only one", assertThrows(ConfigException.class,
                () -> new ConfigLoader(Map.of(), dir, dir, "Linux").load(options("s", true, null))).getMessage());
    }

    @Test
    void badZoneFailsAtStartup() {
        String m = assertThrows(RuntimeException.class, () -> new ConfigLoader(Map.of(), dir, dir, "Linux")
                .load(options(null, false, "Not A Zone"))).getMessage();
        assertTrue(m.startsWith("--zone 'Not A Zone' is not a valid zone name"), m);
    }

    @Test
    void profilePrecedenceIsDefaultThenEnvironmentThenFlag() {
        ProfileRegistry registry = new ProfileRegistry(Map.of("native", NativeProfile::create, "other", NativeProfile::create));
        assertEquals("native", new ConfigLoader(Map.of(), dir, dir, "Linux").profile(null, registry));
        assertEquals("native", new ConfigLoader(Map.of("ENGRAM_PROFILE", " "), dir, dir, "Linux").profile(null, registry));
        ConfigLoader fromEnv = new ConfigLoader(Map.of("ENGRAM_PROFILE", "other"), dir, dir, "Linux");
        assertEquals("other", fromEnv.profile(null, registry));
        assertEquals("native", fromEnv.profile("native", registry));
    }

    @Test
    void unknownProfileFailsNamingTheSettingItsSourceAndTheNames() {
        ProfileRegistry registry = ProfileRegistry.standard();
        assertEquals("ENGRAM_PROFILE (environment) 'nope' is not a profile; choose one of: native, server-memory, brain, toon, memento",
                assertThrows(ConfigException.class, () -> new ConfigLoader(Map.of("ENGRAM_PROFILE", "nope"), dir, dir, "Linux")
                        .profile(null, registry)).getMessage());
        assertEquals("--profile (flag) 'mem' is not a profile; choose one of: native, server-memory, brain, toon, memento",
                assertThrows(ConfigException.class, () -> new ConfigLoader(Map.of("ENGRAM_PROFILE", "native"), dir, dir, "Linux")
                        .profile("mem", registry)).getMessage());
    }

    @Test
    void serverMemorySettingsAreCheckedAndPassedByName() {
        assertEquals(Map.of(), new ConfigLoader(Map.of(), dir, dir, "Linux").profileSettings());
        assertEquals(Map.of("server-memory.search", "unbounded"),
                new ConfigLoader(Map.of("ENGRAM_SERVER_MEMORY_SEARCH", " Unbounded "), dir, dir, "Linux").profileSettings());
        assertEquals(Map.of("server-memory.search", "50"),
                new ConfigLoader(Map.of("ENGRAM_SERVER_MEMORY_SEARCH", "50"), dir, dir, "Linux").profileSettings());
        for (String bad : List.of("0", "101", "all", "-3")) {
            ConfigException e = assertThrows(ConfigException.class,
                    () -> new ConfigLoader(Map.of("ENGRAM_SERVER_MEMORY_SEARCH", bad), dir, dir, "Linux").profileSettings());
            assertTrue(e.getMessage().startsWith("ENGRAM_SERVER_MEMORY_SEARCH (environment) must be"), e.getMessage());
        }
        assertTrue(new ConfigLoader(Map.of(), dir, dir, "Linux").memoryFile().isEmpty());
        assertEquals(dir.resolve("graph/memory.jsonl"),
                new ConfigLoader(Map.of("MEMORY_FILE_PATH", "graph/memory.jsonl"), dir, dir, "Linux").memoryFile().orElseThrow());
    }

    @Test
    void httpPrecedenceAndErrorsNameKeyAndSource() {
        ConfigLoader loader = new ConfigLoader(Map.of("ENGRAM_HTTP_HOST", "localhost", "ENGRAM_HTTP_PORT", "7000",
                "ENGRAM_TOKENS", "tok-a,tok-b"), dir, dir, "Linux");
        HttpServerSettings fromEnv = loader.http(null, null, null, false, List.of(), List.of());
        assertEquals("localhost", fromEnv.host());
        assertEquals(7000, fromEnv.port());
        assertEquals(2, fromEnv.tokens().size());
        HttpServerSettings fromFlags = loader.http("127.0.0.1", 7001, null, false, List.of(), List.of());
        assertEquals("127.0.0.1", fromFlags.host());
        assertEquals(7001, fromFlags.port());
        HttpServerSettings defaults = new ConfigLoader(Map.of(), dir, dir, "Linux").http(null, null, null, true, List.of(), List.of());
        assertEquals(HttpServerSettings.DEFAULT_HOST, defaults.host());
        assertEquals(HttpServerSettings.DEFAULT_PORT, defaults.port());

        assertEquals("ENGRAM_HTTP_PORT (environment) must be a port number 0..65535, got 'http'",
                assertThrows(ConfigException.class, () -> new ConfigLoader(Map.of("ENGRAM_HTTP_PORT", "http"), dir, dir, "Linux")
                        .http(null, null, null, true, List.of(), List.of())).getMessage());
        assertEquals("--port (flag) must be a port number 0..65535, got '99999'", assertThrows(ConfigException.class,
                () -> loader.http(null, 99_999, null, false, List.of(), List.of())).getMessage());
    }

    @Test
    void tokensFileAddsToTheEnvironmentsTokens() throws Exception {
        Path file = Files.writeString(dir.resolve("tokens"), "# comment\nfile-token\n");
        HttpServerSettings s = new ConfigLoader(Map.of("ENGRAM_TOKENS", "env-token"), dir, dir, "Linux")
                .http(null, null, file, false, List.of(), List.of());
        assertTrue(s.tokens().matches("file-token") && s.tokens().matches("env-token"));
        String m = assertThrows(ConfigException.class, () -> new ConfigLoader(Map.of(), dir, dir, "Linux")
                .http(null, null, dir.resolve("missing"), false, List.of(), List.of())).getMessage();
        assertTrue(m.startsWith("--tokens-file (flag) cannot be read"), m);
    }

    @Test
    void mementosAccessKeyIsOneMoreBearerToken() {
        HttpServerSettings s = new ConfigLoader(Map.of("MEMENTO_ACCESS_KEY", " mmcp_key ", "ENGRAM_TOKENS", "env-token"), dir, dir,
                "Linux").http(null, null, null, false, List.of(), List.of());
        assertEquals(2, s.tokens().size());
        assertTrue(s.tokens().matches("mmcp_key") && s.tokens().matches("env-token"));
        String none = assertThrows(dev.engram.error.EngramUserException.class, () -> new ConfigLoader(Map.of("MEMENTO_ACCESS_KEY", " "),
                dir, dir, "Linux").http(null, null, null, false, List.of(), List.of())).getMessage();
        assertTrue(none.contains("at least one bearer token"), "a blank key is no token: " + none);
    }

    @Test
    void theChatModelIsCheckedAndPassedToTheProfilesOrAbsent() {
        assertTrue(new ConfigLoader(Map.of(), dir, dir, "Linux").profileSettings().keySet().stream().noneMatch(k -> k.startsWith("llm.")));
        Map<String, String> s = new ConfigLoader(Map.of("AI_API_BASE", "http://127.0.0.1:11434/v1", "AI_MODEL", "llama3"), dir, dir, "Linux")
                .profileSettings();
        assertEquals("http://127.0.0.1:11434/v1", s.get("llm.url"));
        assertEquals("llama3", s.get("llm.model"));
        assertEquals("ENGRAM_LLM_URL (environment) must be an http(s) URL, got 'ftp://x'; e.g. http://127.0.0.1:11434/v1",
                assertThrows(ConfigException.class, () -> new ConfigLoader(Map.of("ENGRAM_LLM_URL", "ftp://x"), dir, dir, "Linux")
                        .profileSettings()).getMessage());
    }

    @Test
    void serveLimitsAreDefaultsThenEnvironmentThenFlags() {
        ConfigLoader none = new ConfigLoader(Map.of(), dir, dir, "Linux");
        assertEquals(dev.engram.mcp.http.ServerLimits.DEFAULT, none.limits(null, null, null, null));
        ConfigLoader env = new ConfigLoader(Map.of("ENGRAM_RATE_LIMIT", "5", "ENGRAM_MAX_BODY", "512KiB",
                "ENGRAM_SHUTDOWN_GRACE", "30s"), dir, dir, "Linux");
        var fromEnv = env.limits(null, null, null, null);
        assertEquals(5, fromEnv.ratePerSecond());
        assertEquals(10, fromEnv.burst(), "the burst follows the rate: two seconds' worth");
        assertEquals(512 * 1024, fromEnv.maxBodyBytes());
        assertEquals(java.time.Duration.ofSeconds(30), fromEnv.shutdownGrace());
        var fromFlags = env.limits("off", null, "2m", "500ms");
        assertEquals(false, fromFlags.rateLimited());
        assertEquals(2 * 1024 * 1024, fromFlags.maxBodyBytes());
        assertEquals(java.time.Duration.ofMillis(500), fromFlags.shutdownGrace());
        assertEquals(7, env.limits("20", 7, null, null).burst());
    }

    @Test
    void redisIsOffUnlessAskedForAndABadUrlOrPrefixNamesTheSetting() {
        assertEquals(null, new ConfigLoader(Map.of(), dir, dir, "Linux").redis(null, null));
        try (var link = new ConfigLoader(Map.of("ENGRAM_REDIS", "redis://ops:pw@127.0.0.1:6399/1"), dir, dir, "Linux").redis(null, null)) {
            assertEquals("redis://ops:***@127.0.0.1:6399/1", link.shown(), "connects lazily; no password shown");
        }
        assertEquals("--redis (flag) is not usable: the Redis URL must start with redis:// or rediss://, got 'http://h:1'",
                assertThrows(ConfigException.class, () -> new ConfigLoader(Map.of(), dir, dir, "Linux")
                        .redis("http://h:1", null)).getMessage());
        assertEquals("ENGRAM_REDIS_PREFIX (environment) must be 1-64 printable characters without spaces, e.g. engram:team-a:",
                assertThrows(ConfigException.class, () -> new ConfigLoader(Map.of("ENGRAM_REDIS_PREFIX", "a b"), dir, dir, "Linux")
                        .redis("redis://127.0.0.1:6379", null)).getMessage());
    }

    @Test
    void badServeLimitsNameTheSettingAndWhatToSend() {
        ConfigLoader none = new ConfigLoader(Map.of(), dir, dir, "Linux");
        assertEquals("--rate-limit (flag) must be requests per second per token (e.g. 50 or 0.5), or off for no limit;"
                + " got 'fast'", assertThrows(ConfigException.class, () -> none.limits("fast", null, null, null)).getMessage());
        assertEquals("ENGRAM_RATE_BURST (environment) must be a whole number 1..1000000 (a number of requests, e.g. 100); got '0'",
                assertThrows(ConfigException.class, () -> new ConfigLoader(Map.of("ENGRAM_RATE_BURST", "0"), dir, dir, "Linux")
                        .limits(null, null, null, null)).getMessage());
        assertEquals("--max-body (flag) must be a size from 1KiB to 1024MiB, e.g. 4MiB, 512KiB or a number of bytes; got '10'",
                assertThrows(ConfigException.class, () -> none.limits(null, null, "10", null)).getMessage());
        assertEquals("--shutdown-grace (flag) must be a duration up to 1 hour, e.g. 10s, 500ms or 1m; got 'soon'",
                assertThrows(ConfigException.class, () -> none.limits(null, null, null, "soon")).getMessage());
    }

    @Test
    void sessionIdAndSwitchComeFromEngramsOrToonsVariables() {
        assertEquals(null, new ConfigLoader(Map.of(), dir, dir, "Linux").sessionId());
        assertEquals("toon-7", new ConfigLoader(Map.of("TOON_MEMORY_SESSION_ID", " toon-7 "), dir, dir, "Linux").sessionId());
        assertEquals("mine", new ConfigLoader(Map.of("TOON_MEMORY_SESSION_ID", "toon-7", "ENGRAM_SESSION_ID", "mine"), dir, dir, "Linux")
                .sessionId());
        ConfigException bad = org.junit.jupiter.api.Assertions.assertThrows(ConfigException.class,
                () -> new ConfigLoader(Map.of("TOON_MEMORY_SESSION_ID", "two\nlines"), dir, dir, "Linux").sessionId());
        org.junit.jupiter.api.Assertions.assertTrue(bad.getMessage().contains("TOON_MEMORY_SESSION_ID"), bad.getMessage());
        org.junit.jupiter.api.Assertions.assertFalse(new ConfigLoader(Map.of("TOON_MEMORY_NO_SESSION", ""), dir, dir, "Linux").sessionsDisabled());
        org.junit.jupiter.api.Assertions.assertTrue(new ConfigLoader(Map.of("TOON_MEMORY_NO_SESSION", "1"), dir, dir, "Linux").sessionsDisabled());
        org.junit.jupiter.api.Assertions.assertTrue(new ConfigLoader(Map.of("ENGRAM_NO_SESSION", "true"), dir, dir, "Linux").sessionsDisabled());
    }
}
