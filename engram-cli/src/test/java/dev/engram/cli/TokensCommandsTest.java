package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.access.Principals;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code engram tokens add|list|revoke} on a real embedded store. */
class TokensCommandsTest {
    @TempDir
    Path dir;

    private CliRunner cli() {
        return new CliRunner(dir, java.util.Map.of("ENGRAM_HOME", dir.resolve("store").toString()),
                (config, embedding) -> Main.openEmbedded(config, Clock.systemUTC(), null));
    }

    @Test
    void addPrintsTheTokenOnceListNeverDoesAndRevokeRemoves() {
        CliRunner.Run added = cli().run("tokens", "add", "ci-bot", "--zone", "team:write", "--zone", "docs:read");
        assertEquals(0, added.exitCode(), added.err());
        String token = added.out().strip();
        assertTrue(token.startsWith("engram_") && !token.contains("\n"), added.out());
        assertTrue(added.err().contains("principal ci-bot (docs:read, team:write)"), added.err());
        assertTrue(added.err().contains("shown this once"), added.err());
        assertEquals(0, cli().run("tokens", "add", "ops", "--all-zones", "read").exitCode());

        CliRunner.Run list = cli().run("tokens", "list");
        assertEquals(0, list.exitCode(), list.err());
        assertTrue(list.out().contains("ci-bot  docs:read, team:write  created "), list.out());
        assertTrue(list.out().contains("ops  *:read  created "), list.out());
        assertFalse(list.out().contains(token), "list must never print a token");
        assertFalse(list.out().contains(Principals.sha256Hex(token)), "nor its digest");
        CliRunner.Run json = cli().run("tokens", "list", "--json");
        assertTrue(json.out().contains("\"name\":\"ci-bot\"") && json.out().contains("\"team\":\"write\""), json.out());
        assertFalse(json.out().contains(token) || json.out().contains(Principals.sha256Hex(token)), json.out());

        CliRunner.Run revoked = cli().run("tokens", "revoke", "ci-bot");
        assertEquals(0, revoked.exitCode(), revoked.err());
        assertTrue(revoked.err().contains("revoked ci-bot"), revoked.err());
        assertFalse(cli().run("tokens", "list").out().contains("ci-bot"));
        CliRunner.Run again = cli().run("tokens", "revoke", "ci-bot");
        assertEquals(2, again.exitCode());
        assertTrue(again.err().contains("no principal named 'ci-bot'"), again.err());
    }

    @Test
    void badRightsAndNamesAreRefusedWithWhatToSend() {
        CliRunner.Run bad = cli().run("tokens", "add", "x", "--zone", "team:owner");
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().contains("'team:owner' is not ZONE:RIGHT; RIGHT is read, write or admin"), bad.err());
        CliRunner.Run none = cli().run("tokens", "add", "x");
        assertEquals(2, none.exitCode());
        assertTrue(none.err().contains("at least one right"), none.err());
        CliRunner.Run name = cli().run("tokens", "add", "Bad Name", "--zone", "team:read");
        assertEquals(2, name.exitCode());
        assertTrue(name.err().contains("not a principal name"), name.err());
        assertTrue(cli().run("tokens", "list").out().contains("no principals"));
    }
}
