package dev.engram.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The {@code engram} command: global options and the list of subcommands. */
@Command(name = "engram", mixinStandardHelpOptions = true, versionProvider = EngramCommand.Version.class,
        description = "Durable memory for AI agents over MCP.",
        subcommands = {McpSubcommand.class, HookSubcommand.class, ServeSubcommand.class, ViewerSubcommand.class, ProfilesSubcommand.class, RememberSubcommand.class, RecallSubcommand.class,
                ForgetSubcommand.class, StatsSubcommand.class, ConsolidateSubcommand.class, ExportSubcommand.class, ImportSubcommand.class,
                RestoreSubcommand.class, InitSubcommand.class, UninstallSubcommand.class, DoctorSubcommand.class, ReindexSubcommand.class, ProxySubcommand.class, TokensSubcommand.class,
                VersionSubcommand.class})
final class EngramCommand implements Runnable {
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
