package dev.engram.cli;

import picocli.CommandLine.Option;

/** {@code --remote URL} and its token: the command talks to a running {@code engram serve} instead of opening a store. */
final class RemoteOptions {
    @Option(names = "--remote", paramLabel = "URL",
            description = "Run against a running engram serve, e.g. http://mem.example:56332/mcp (its MCP endpoint)")
    String url;

    @Option(names = "--token", paramLabel = "TOKEN",
            description = "Bearer token for --remote (default $ENGRAM_TOKEN; prefer the variable: flags show in process lists)")
    String token;

    boolean active() {
        return url != null;
    }

    /**
     * Connects, with the token from the flag or ENGRAM_TOKEN. A store named on the command line contradicts
     * --remote (the server has its own), so it is refused rather than silently ignored.
     */
    RemoteServer connect(Main main, EngramConfig config) {
        StoreLocation.Source source = config.store().source();
        if (source == StoreLocation.Source.FLAG || source == StoreLocation.Source.PROJECT) {
            throw new ConfigException("--remote", "flag", "works on the server's store, so --store and --project do not go"
                    + " with it; drop them, or drop --remote to work on that store here");
        }
        return RemoteServer.connect(url, main.configLoader().remoteToken(token), main.json());
    }
}
