package dev.engram.cli;

import java.util.List;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The {@code engram} command: global options and the list of subcommands. */
@Command(name = "engram", mixinStandardHelpOptions = true, versionProvider = EngramCommand.Version.class,
        description = "Durable memory for AI agents over MCP.")
final class EngramCommand implements Runnable {
    /**
     * The subcommands, in the order help lists them. Registered with picocli by {@link #commandLine}, not in
     * the annotation: picocli builds the model of every registered command up front, about 0.2 s of
     * {@code engram mcp}'s start-up (docs/benchmarks.md, "Start-up: one command's model…").
     */
    static final List<Class<?>> SUBCOMMANDS = List.of(McpSubcommand.class, HookSubcommand.class, ServeSubcommand.class,
            ViewerSubcommand.class, ProfilesSubcommand.class, RememberSubcommand.class, RecallSubcommand.class,
            ForgetSubcommand.class, StatsSubcommand.class, ConsolidateSubcommand.class, ExportSubcommand.class,
            ImportSubcommand.class, RestoreSubcommand.class, InitSubcommand.class, UninstallSubcommand.class,
            DoctorSubcommand.class, ReindexSubcommand.class, ProxySubcommand.class, TokensSubcommand.class,
            VersionSubcommand.class);

    /** The global options that take a value (see {@link GlobalOptions}): their value is not a command word. */
    private static final Set<String> VALUE_OPTIONS = Set.of("--store", "--zone");

    /** The command line with every subcommand: for help, errors, and a process that runs many commands. */
    static CommandLine commandLine(EngramCommand root) {
        CommandLine cli = new CommandLine(root);
        for (Class<?> sub : SUBCOMMANDS) cli.addSubcommand(sub);
        return cli;
    }

    /**
     * The command line for one run of {@code args}: only the subcommand they name, when they name one of
     * {@link #SUBCOMMANDS} before any option picocli would answer itself; every subcommand otherwise
     * (no command, help, a misspelt name: picocli's messages list or suggest the others).
     */
    static CommandLine commandLine(EngramCommand root, String... args) {
        Class<?> only = namedSubcommand(args);
        if (only == null) return commandLine(root);
        CommandLine cli = new CommandLine(root);
        cli.addSubcommand(only);
        return cli;
    }

    private static Class<?> namedSubcommand(String... args) {
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (VALUE_OPTIONS.contains(arg)) {
                i++;
            } else if (arg.startsWith("-")) {
                if (!arg.startsWith("--") || arg.equals("--help") || arg.equals("--version")) return null;
            } else {
                for (Class<?> sub : SUBCOMMANDS) {
                    if (sub.getAnnotation(Command.class).name().equals(arg)) return sub;
                }
                return null;
            }
        }
        return null;
    }

    // replaced per call when the hook daemon reuses one command line (see Main#run(CommandLine, String...))
    private Main main;

    @Mixin
    GlobalOptions global;

    @Spec
    CommandSpec spec;

    EngramCommand(Main main) {
        this.main = main;
    }

    void use(Main main) {
        this.main = main;
    }

    Main main() {
        return main;
    }

    EngramConfig config() {
        return main.config(global);
    }

    /**
     * Refuses {@code --json} for a command whose output is text for a person (or the protocol itself), so the
     * flag is never accepted and then ignored.
     */
    void textOnly(String command, String instead) {
        if (global.json) {
            throw new ConfigException("--json", "flag", "does not apply to engram " + command + ": " + instead + "; leave it out");
        }
    }

    @Override
    public void run() {
        spec.commandLine().usage(main.err());
    }

    static final class Version implements picocli.CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"engram " + Main.version()};
        }
    }
}
