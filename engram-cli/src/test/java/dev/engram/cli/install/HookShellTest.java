package dev.engram.cli.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Hook command lines per shell. The POSIX and Git-Bash forms are run through bash here, which must hand the
 * program exactly the words meant; the cmd.exe and PowerShell forms are checked against their quoting rules
 * (no Windows shell on this machine).
 */
class HookShellTest {
    static final List<String> WINDOWS_WORDS = List.of("C:\\Program Files\\Java\\jdk-17\\bin\\java.exe", "-jar",
            "C:\\Users\\Jo Smith\\engram\\engram.jar", "hook", "session-start", "claude", "--profile", "toon");

    private static String line(HookShell shell, List<String> words) {
        StringBuilder why = new StringBuilder();
        Optional<String> line = shell.line(words, why);
        assertTrue(line.isPresent(), why.toString());
        return line.get();
    }

    /** The words bash passes to a program for this command line (the program included). */
    private static List<String> bashWords(String line) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("bash", "-c", "eval \"set -- $1\"; printf '%s\\n' \"$@\"", "bash", line).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor());
        return out.lines().toList();
    }

    @Test
    void posixQuotesOnlyWhatNeedsItAndBashReadsTheSameWords() throws Exception {
        List<String> words = List.of("/opt/my engram/bin/engram", "hook", "stop", "--store", "/srv/it's here", "--zone", "a$b");
        String line = line(HookShell.POSIX, words);
        assertEquals("'/opt/my engram/bin/engram' hook stop --store '/srv/it'\\''s here' --zone 'a$b'", line);
        assertEquals(words, bashWords(line));
    }

    @Test
    void gitBashOrCmdGetsDoubleQuotesAndForwardSlashes() throws Exception {
        String line = line(HookShell.BASH_OR_CMD, WINDOWS_WORDS);
        assertEquals("\"C:/Program Files/Java/jdk-17/bin/java.exe\" -jar \"C:/Users/Jo Smith/engram/engram.jar\""
                + " hook session-start claude --profile toon", line);
        // Git Bash hands java.exe these words; cmd.exe passes the quoted paths through unchanged
        assertEquals(List.of("C:/Program Files/Java/jdk-17/bin/java.exe", "-jar", "C:/Users/Jo Smith/engram/engram.jar",
                "hook", "session-start", "claude", "--profile", "toon"), bashWords(line));
        assertEquals("//server/share/engram.jar", line(HookShell.BASH_OR_CMD, List.of("\\\\server\\share\\engram.jar")), "a UNC path");
        StringBuilder why = new StringBuilder();
        assertTrue(HookShell.BASH_OR_CMD.line(List.of("C:\\a\\b.exe", "--zone", "100%"), why).isEmpty());
        assertTrue(why.toString().contains("'100%'"), why.toString());
    }

    @Test
    void cmdThroughCodexTakesBareWordsWithBackslashesAndRefusesASpace() {
        assertEquals("C:\\engram\\jdk\\bin\\java.exe -jar C:\\engram\\engram.jar hook stop --profile toon",
                line(HookShell.CMD_BARE, List.of("C:\\engram\\jdk\\bin\\java.exe", "-jar", "C:\\engram\\engram.jar", "hook", "stop",
                        "--profile", "toon")));
        StringBuilder why = new StringBuilder();
        assertTrue(HookShell.CMD_BARE.line(WINDOWS_WORDS, why).isEmpty());
        assertTrue(why.toString().contains("'C:\\Program Files\\Java\\jdk-17\\bin\\java.exe'") && why.toString().contains("cmd.exe /C"),
                why.toString());
        assertTrue(HookShell.CMD_BARE.line(List.of("C:\\e\\engram.exe", "--zone", "a&b"), new StringBuilder()).isEmpty(), "& is cmd's");
    }

    @Test
    void plainWritesOnlyWordsEveryShellReadsAlike() throws Exception {
        List<String> words = List.of("C:\\engram\\engram.exe", "hook", "session-start", "antigravity", "--profile", "toon");
        assertEquals("C:\\engram\\engram.exe hook session-start antigravity --profile toon", line(HookShell.PLAIN, words));
        assertEquals(List.of("/opt/engram/bin/engram", "hook", "stop", "antigravity"),
                bashWords(line(HookShell.PLAIN, List.of("/opt/engram/bin/engram", "hook", "stop", "antigravity"))));
        StringBuilder why = new StringBuilder();
        assertTrue(HookShell.PLAIN.line(WINDOWS_WORDS, why).isEmpty());
        assertTrue(why.toString().contains("'C:\\Program Files\\Java\\jdk-17\\bin\\java.exe'") && why.toString().contains("not documented"),
                why.toString());
        assertTrue(HookShell.PLAIN.line(List.of("C:\\e\\engram.exe", "--zone", "a$b"), new StringBuilder()).isEmpty(), "$ is PowerShell's and bash's");
    }

    @Test
    void powershellCallsAQuotedProgramWithTheCallOperatorAndDoublesSingleQuotes() {
        assertEquals("& 'C:\\Program Files\\Java\\jdk-17\\bin\\java.exe' -jar 'C:\\Users\\Jo Smith\\engram\\engram.jar'"
                + " hook session-start claude --profile toon", line(HookShell.POWERSHELL, WINDOWS_WORDS));
        assertEquals("C:\\engram\\engram.exe hook stop --store 'C:\\Users\\O''Brien\\store' --zone 'a$b'",
                line(HookShell.POWERSHELL, List.of("C:\\engram\\engram.exe", "hook", "stop", "--store", "C:\\Users\\O'Brien\\store",
                        "--zone", "a$b")));
        assertEquals("x 'it\u2019\u2019s'", line(HookShell.POWERSHELL, List.of("x", "it\u2019s")), "PowerShell ends a quote at \u2019 too");
    }
}
