package dev.engram.cli;

import dev.engram.error.EngramUserException;
import java.io.PrintStream;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * How failures reach a person: a user mistake prints its message and exits 2; our own failure
 * prints one line and exits 1. Stack traces only with {@code --debug}. A hook an agent runs never exits 2 on
 * arguments it cannot parse ({@link HookUsageErrors}).
 */
final class ErrorReporter implements IExecutionExceptionHandler, IParameterExceptionHandler {
    static final int FAILED = 1;
    static final int USER_ERROR = 2;

    private final PrintStream err;

    ErrorReporter(PrintStream err) {
        this.err = err;
    }

    @Override
    public int handleExecutionException(Exception e, CommandLine cmd, ParseResult parsed) {
        boolean debug = matched(parsed, "--debug");
        if (e instanceof EngramUserException) {
            err.println("engram: " + e.getMessage());
            if (debug) e.printStackTrace(err);
            return USER_ERROR;
        }
        // the store's own failures say what failed in words (an unreachable server, a database that does not exist)
        String what = e instanceof dev.engram.error.StoreException && e.getMessage() != null ? e.getMessage() : e.toString();
        err.println("engram " + cmd.getCommandName() + " failed: " + what + (debug ? "" : " (run with --debug for details)"));
        if (debug) e.printStackTrace(err);
        return FAILED;
    }

    private static boolean matched(ParseResult parsed, String option) {
        for (ParseResult p = parsed; p != null; p = p.subcommand()) {
            if (p.hasMatchedOption(option)) return true;
        }
        return false;
    }

    /** The command's words after {@code engram}. */
    private static String qualifiedTail(CommandLine cmd) {
        String name = cmd.getCommandSpec().qualifiedName();
        int space = name.indexOf(' ');
        return space < 0 ? name : name.substring(space + 1);
    }

    @Override
    public int handleParseException(ParameterException e, String[] args) {
        CommandLine failed = e.getCommandLine();
        err.println("engram: " + e.getMessage());
        // the command as typed, `engram hook prompt`, not only its last word
        err.println("run '" + failed.getCommandSpec().qualifiedName() + " --help' for usage");
        if (HookUsageErrors.isAgentHook(failed)) {
            err.println("engram " + qualifiedTail(failed) + ": nothing done; exit 0 so the agent goes on (a hook must never stop it)");
            return HookUsageErrors.answer(failed, args);
        }
        return USER_ERROR;
    }
}
