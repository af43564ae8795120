package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `engram proxy doctor` and `engram proxy config show` against real child-process upstreams. */
class ProxyDoctorCommandTest {
    @TempDir
    Path dir;

    private final String java = ProcessHandle.current().info().command().orElse("java");
    private final Map<String, String> env = Map.of("PATH", System.getenv("PATH"), "HOME", System.getProperty("user.home"),
            "ENGRAM_PROXY_CONNECT_TIMEOUT_SECONDS", "20", "SET_ONE", "v");

    private CliRunner cli() {
        return new CliRunner(dir, env, (c, embedding) -> {
            throw new IllegalStateException("doctor never opens the store");
        });
    }

    private String store() {
        return dir.resolve("store").toString();
    }

    private void addFake(String name) {
        CliRunner.Run add = cli().run("--store", store(), "proxy", "add", name, "--command", java, "--args",
                "-cp '" + System.getProperty("java.class.path") + "' " + FakeStdioUpstream.class.getName(), "--prefix", name,
                "--override", "wipe:hidden=true", "--env", "SET_ONE", "--env", "NOT_SET_ANYWHERE");
        assertEquals(0, add.exitCode(), add.err());
    }

    @Test
    void everyUpstreamPassingGivesExit0WithToolCountsAndWhatWasHidden() {
        addFake("good");
        CliRunner.Run r = cli().run("--store", store(), "proxy", "doctor");
        assertEquals(0, r.exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("PASS good: started, initialized, tools/list gave 2 tools, 1 exposed ("), r.out());
        assertTrue(r.out().contains("hidden wipe: hidden by proxy.json"), r.out());
        assertTrue(r.out().contains("WARN upstream 'good': NOT_SET_ANYWHERE is not set in this environment"), r.out());
        assertTrue(r.out().contains("All upstreams work."), r.out());
    }

    @Test
    void aFailingUpstreamGivesExit1WithItsStepAndError() {
        addFake("good");
        assertEquals(0, cli().run("--store", store(), "proxy", "add", "dies", "--command", "sh", "--args",
                "-c 'echo broken >&2; exit 3'", "--prefix", "dies").exitCode());
        assertEquals(0, cli().run("--store", store(), "proxy", "add", "ghost", "--command", "no-such-binary-zq", "--prefix", "g").exitCode());
        CliRunner.Run r = cli().run("--store", store(), "--json", "proxy", "doctor");
        assertEquals(1, r.exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("\"ok\":false"), r.out());
        CliRunner.Run text = cli().run("--store", store(), "proxy", "doctor");
        assertEquals(1, text.exitCode());
        assertTrue(text.out().contains("PASS good:"), text.out());
        assertTrue(text.out().contains("FAIL dies: start and initialize failed: upstream 'dies' "), text.out());
        assertTrue(text.out().contains("its stderr ended with: broken"), text.out()); // why it died, from the child itself
        assertTrue(text.out().contains("FAIL upstream 'ghost': command 'no-such-binary-zq' is not found on PATH"), text.out());
        assertTrue(text.out().contains("FAIL ghost: start and initialize failed:"), text.out());
        assertTrue(text.out().contains("Some upstreams fail"), text.out());
    }

    @Test
    void noUpstreamsIsNotAFailure() {
        CliRunner.Run r = cli().run("--store", store(), "proxy", "doctor");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("Nothing to start."), r.out());
    }

    @Test
    void configShowFillsDefaultsAndHidesSecrets() {
        addFake("good");
        assertEquals(0, cli().run("--store", store(), "proxy", "add", "web", "--url", "https://user:pw@h.example/mcp?token=abc&v=2",
                "--header", "Authorization=Bearer s3cret", "--prefix", "web").exitCode());
        CliRunner.Run r = cli().run("--store", store(), "proxy", "config", "show");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("env passed: PATH, HOME, SET_ONE (set), NOT_SET_ANYWHERE (not set)"), r.out());
        assertTrue(r.out().contains("compression auto, max_result_chars 8000, cache_ttl_seconds 3600"), r.out());
        assertTrue(r.out().contains("tool wipe: hidden"), r.out());
        assertTrue(r.out().contains("http: https://<hidden>@h.example/mcp?token=<hidden>&v=<hidden>"), r.out());
        assertTrue(r.out().contains("headers: Authorization: <hidden>"), r.out());
        assertTrue(r.out().contains("connect_timeout_seconds 20"), r.out());
        CliRunner.Run json = cli().run("--store", store(), "--json", "proxy", "config", "show");
        for (String out : new String[] {r.out(), json.out()}) {
            assertFalse(out.contains("s3cret") || out.contains("pw@") || out.contains("abc"), out);
        }
        assertTrue(json.out().contains("\"Authorization\":\"<hidden>\""), json.out());
    }

    @Test
    void configShowMasksCredentialsInArgs() {
        assertEquals(0, cli().run("--store", store(), "proxy", "add", "pg", "--command", "npx", "--args",
                "-y @modelcontextprotocol/server-postgres postgresql://admin:S3cretPW@db.internal/prod", "--prefix", "pg").exitCode());
        CliRunner.Run r = cli().run("--store", store(), "proxy", "config", "show");
        CliRunner.Run json = cli().run("--store", store(), "--json", "proxy", "config", "show");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(0, json.exitCode(), json.err());
        assertTrue(r.out().contains("stdio: npx -y @modelcontextprotocol/server-postgres postgresql://<hidden>@db.internal/prod"), r.out());
        for (String out : new String[] {r.out(), json.out()}) assertFalse(out.contains("S3cretPW") || out.contains("admin:"), out);
        assertTrue(json.out().contains("postgresql://<hidden>@db.internal/prod"), json.out());
        CliRunner.Run list = cli().run("--store", store(), "proxy", "list");
        CliRunner.Run listJson = cli().run("--store", store(), "--json", "proxy", "list");
        assertTrue(list.out().contains("postgresql://<hidden>@db.internal/prod"), list.out());
        for (String out : new String[] {list.out(), listJson.out()}) assertFalse(out.contains("S3cretPW"), out);
    }

    @Test
    void aCommandThatIsNoPathIsAProblemNotACrash() throws Exception {
        Files.createDirectories(dir.resolve("store"));
        Files.writeString(dir.resolve("store/proxy.json"),
                "{\"upstreams\":[{\"name\":\"bad\",\"prefix\":\"bad\",\"command\":\"/bin/x\\u0000y\"}]}");
        for (String cmd : new String[] {"validate", "doctor"}) {
            CliRunner.Run r = cmd.equals("validate") ? cli().run("--store", store(), "proxy", "config", "validate")
                    : cli().run("--store", store(), "proxy", "doctor");
            assertEquals(2, r.exitCode(), cmd + ": " + r.out() + r.err());
            assertTrue(r.err().contains("upstreams[0] ('bad'): command "), cmd + ": " + r.err());
            assertFalse(r.err().contains("InvalidPathException") || r.err().contains("\tat "), cmd + ": " + r.err());
        }
    }
}
