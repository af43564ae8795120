package dev.engram.cli;

import java.util.Set;
import picocli.CommandLine;

/**
 * A command line an agent runs as a hook that picocli cannot parse (an option this version does not know, a bad
 * value). Exit 2 means something to the hosts: Claude Code blocks the prompt (UserPromptSubmit) or makes the turn go
 * on (Stop), and Antigravity fails the model call when stdout is not its JSON. So such a hook says what is wrong on
 * stderr, gives the answer it gives when it has nothing to add ({@code {}} for Antigravity, nothing for the others)
 * and exits 0, as it does for every other failure.
 */
final class HookUsageErrors {
    /** The hooks agents run on their events; not feedback (a command the agent or a person types) or daemon. */
    private static final Set<String> EVENTS = Set.of("prompt", "stop", "session-start", "capture", "post-tool");

    private HookUsageErrors() {
    }

    /**
     * Whether {@code failed}, the command picocli could not parse, is an agent's hook: one of {@link #EVENTS}, or
     * {@code engram hook} itself given a hook this version does not have (a newer install's registration).
     */
    static boolean isAgentHook(CommandLine failed) {
        CommandLine parent = failed.getParent();
        if (parent == null) return false;
        if (parent.getParent() == null) return failed.getCommandName().equals("hook");
        return parent.getCommandName().equals("hook") && parent.getParent().getParent() == null
                && EVENTS.contains(failed.getCommandName());
    }

    /** Answers for the agent the arguments name (Antigravity: {@code {}}); always exit 0. */
    static int answer(CommandLine failed, String[] args) {
        boolean antigravity = false;
        for (String arg : args) antigravity |= HookSubcommand.antigravity(arg);
        if (antigravity) {
            failed.getOut().println("{}");
            failed.getOut().flush();
        }
        return 0;
    }
}
