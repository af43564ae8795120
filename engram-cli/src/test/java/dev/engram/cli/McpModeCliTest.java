package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.StoreException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code engram mcp --mode}: checked before stdout becomes the protocol's, so a mistake is told and nothing served. */
class McpModeCliTest {
    @TempDir
    Path dir;

    private CliRunner cli() {
        return new CliRunner(dir, (config, embedding) -> {
            throw new StoreException("no store in this test");
        });
    }

    @Test
    void aModeNeedsTheMementoProfileAndAKnownPreset() {
        CliRunner.Run wrongProfile = cli().run("mcp", "--mode", "audit");
        assertEquals(ErrorReporter.USER_ERROR, wrongProfile.exitCode());
        assertTrue(wrongProfile.err().contains("needs --profile memento (the profile is native)"), wrongProfile.err());
        CliRunner.Run unknown = cli().run("mcp", "--profile", "memento", "--mode", "read-only");
        assertEquals(ErrorReporter.USER_ERROR, unknown.exitCode());
        assertTrue(unknown.err().contains("'read-only' is not a mode preset; send one of recall-only, write-only, onboarding, audit"),
                unknown.err());
        assertEquals("", wrongProfile.out() + unknown.out(), "nothing reaches stdout");
    }
}
