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

    /** Connects, with the token from the flag or ENGRAM_TOKEN. */
    RemoteServer connect(Main main) {
        return RemoteServer.connect(url, main.configLoader().remoteToken(token), main.json());
    }
}
