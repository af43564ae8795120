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
 * prints one line and exits 1. Stack traces only with {@code --debug}.
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
        err.println("engram " + cmd.getCommandName() + " failed: " + e + (debug ? "" : " (run with --debug for details)"));
        if (debug) e.printStackTrace(err);
        return FAILED;
    }

    private static boolean matched(ParseResult parsed, String option) {
        for (ParseResult p = parsed; p != null; p = p.subcommand()) {
            if (p.hasMatchedOption(option)) return true;
        }
        return false;
    }

    @Override
    public int handleParseException(ParameterException e, String[] args) {
        err.println("engram: " + e.getMessage());
        err.println("run 'engram " + (e.getCommandLine().getParent() == null ? "" : e.getCommandLine().getCommandName() + " ")
                + "--help' for usage");
        return USER_ERROR;
    }
}
