package dev.engram.cli.install;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The shell an agent hands a hook's {@code command} string to, and how {@code engram init} writes the words
 * of Engram's hook command line for it. On Linux and macOS every agent uses a POSIX shell. On Windows they
 * differ, and a word quoted for the wrong shell is a hook that never runs (a path under
 * {@code C:\Program Files} is the usual case):
 * <ul>
 *   <li>Gemini CLI spawns {@code pwsh.exe}/{@code powershell.exe -NoProfile -NonInteractive -Command COMMAND}
 *       (google-gemini/gemini-cli, hooks/hookRunner.ts and utils/shell-utils.ts {@code getShellConfiguration}).
 *   <li>Codex runs {@code %COMSPEC% /C COMMAND} (openai/codex, codex-rs/hooks/src/engine/command_runner.rs
 *       {@code default_shell_command}), passing COMMAND as one argument through Rust's Windows argument
 *       quoting, which escapes inner double quotes as {@code \"}: cmd.exe reads those literally, so no quoting
 *       survives and a word with a space cannot be written at all.
 *   <li>Claude Code's source is not public; reports disagree between Git Bash and cmd.exe, so its words are
 *       written in the form both read alike: plain, or in double quotes with forward slashes.
 * </ul>
 */
public enum HookShell {
    /** {@code sh -c}: single quotes where a word needs them. */
    POSIX,
    /** Git Bash or cmd.exe: double quotes, Windows paths with forward slashes (both shells and Windows accept them). */
    BASH_OR_CMD,
    /** cmd.exe through an argument quoting that cannot carry quotes: bare words only. */
    CMD_BARE,
    /** PowerShell {@code -Command}: single-quoted literals, the call operator before a quoted program. */
    POWERSHELL,
    /**
     * A shell the agent does not document (Antigravity on Windows): bare words only, which cmd.exe, PowerShell
     * and a POSIX shell all read the same way.
     */
    PLAIN;

    private static final Pattern POSIX_PLAIN = Pattern.compile("[A-Za-z0-9_./:=@%+,-]+");
    private static final Pattern PLAIN_WINDOWS = Pattern.compile("[A-Za-z0-9_./:\\\\=+-]+");
    private static final Pattern WINDOWS_PATH = Pattern.compile("^([A-Za-z]:[\\\\/]|\\\\\\\\).*");

    /**
     * The command line, or empty with {@code why} filled when a word cannot be written for this shell (the
     * hook is then not registered: a hook that cannot start is worse than none, it fails at every turn).
     */
    public Optional<String> line(List<String> words, StringBuilder why) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            String q = word(w, i == 0);
            if (q == null) {
                why.append(reason(w));
                return Optional.empty();
            }
            out.add(q);
        }
        return Optional.of(String.join(" ", out));
    }

    private String word(String w, boolean program) {
        return switch (this) {
            case POSIX -> !w.isEmpty() && POSIX_PLAIN.matcher(w).matches() ? w : "'" + w.replace("'", "'\\''") + "'";
            case BASH_OR_CMD -> {
                String s = WINDOWS_PATH.matcher(w).matches() ? w.replace('\\', '/') : w;
                if (!s.isEmpty() && POSIX_PLAIN.matcher(s).matches() && s.indexOf('%') < 0) yield s;
                // inside double quotes bash still expands $ ` \ and cmd.exe still expands %VAR%; " ends the quote in both
                yield s.matches(".*[\"$`\\\\%!].*") ? null : "\"" + s + "\"";
            }
            case CMD_BARE, PLAIN -> !w.isEmpty() && PLAIN_WINDOWS.matcher(w).matches() ? w : null;
            case POWERSHELL -> {
                if (!w.isEmpty() && PLAIN_WINDOWS.matcher(w).matches()) yield w; // options (-jar, --profile) pass to native programs as written
                String quoted = "'" + w.replaceAll("['\u2018\u2019\u201A\u201B]", "$0$0") + "'"; // PowerShell takes typographic quotes as ' too
                yield program ? "& " + quoted : quoted; // a quoted string alone is an expression; & runs it
            }
        };
    }

    private String reason(String w) {
        return switch (this) {
            case CMD_BARE -> "its hooks run through cmd.exe /C with quotes escaped away, so the word '" + w
                    + "' (a space or one of cmd's special characters) cannot be written; give --command a path without"
                    + " spaces (for example a copy of engram.jar in C:\\engram\\) to register them";
            case PLAIN -> "the shell it runs hooks with on Windows is not documented, so only plain words are written and '" + w
                    + "' (a space or a shell's special character) is not one; give --command a path without spaces (for example"
                    + " a copy of engram.jar in C:\\engram\\) to register them";
            case BASH_OR_CMD -> "the word '" + w + "' holds a character that Git Bash or cmd.exe would expand even in"
                    + " double quotes (\" $ ` \\ % !); give --command a path without it to register them";
            default -> "the word '" + w + "' cannot be written for this shell";
        };
    }
}
