package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.StoreException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliCommandsTest {
    @TempDir
    Path dir;

    private CliRunner failingStore() {
        return new CliRunner(dir, (config, embedding) -> {
            throw new StoreException("open " + config.storeDir() + ": database disk image is malformed");
        });
    }

    @Test
    void version() {
        CliRunner.Run r = failingStore().run("version");
        assertEquals(0, r.exitCode());
        assertTrue(r.out().startsWith("engram "), r.out());
    }

    @Test
    void userErrorsExitTwoWithTheMessageAndNoStackTrace() {
        CliRunner.Run r = failingStore().run("recall", "x", "--zone", "Bad Zone");
        assertEquals(2, r.exitCode());
        assertTrue(r.err().startsWith("engram: --zone 'Bad Zone' is not a valid zone name"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
    }

    @Test
    void unknownOptionsExitTwoWithAUsageHint() {
        CliRunner.Run r = failingStore().run("recall", "--colour", "red");
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("--colour") && r.err().contains("engram recall --help"), r.err());
    }

    @Test
    void internalFailuresExitOneWithOneLineUnlessDebug() {
        CliRunner.Run r = failingStore().run("stats");
        assertEquals(1, r.exitCode());
        assertTrue(r.err().contains("database disk image is malformed") && r.err().contains("--debug"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
        CliRunner.Run debug = failingStore().run("stats", "--debug");
        assertTrue(debug.err().contains("\tat "), debug.err());
    }

    @Test
    void forgetHelpStatesTheEnginesRestoreWindow() {
        String usage = new picocli.CommandLine(new ForgetSubcommand()).getUsageMessage();
        String days = dev.engram.engine.Engine.RESTORE_WINDOW.toDays() + " days";
        assertTrue(usage.contains("restored for " + days) && usage.contains("undoes it for " + days), usage);
    }

    @Test
    void serveWithoutTokensRefusesAndSaysHow() {
        CliRunner.Run r = failingStore().run("serve");
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("ENGRAM_TOKENS") && r.err().contains("--no-auth"), r.err());
        assertEquals(2, failingStore().run("serve", "--no-auth", "--host", "0.0.0.0").exitCode());
    }
}
