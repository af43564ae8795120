package dev.engram.cli;

import dev.engram.mcp.http.HttpServerSettings;
import dev.engram.mcp.http.McpHttpServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(name = "serve", mixinStandardHelpOptions = true, description = "Serve MCP over Streamable HTTP with bearer tokens.")
final class ServeSubcommand implements Callable<Integer> {
    @ParentCommand
    EngramCommand root;

    @Option(names = "--profile", paramLabel = "NAME", description = ConfigLoader.PROFILE_HELP)
    String profile;

    @Option(names = "--host", description = "Address to bind (default 127.0.0.1, or $ENGRAM_HTTP_HOST)")
    String host;

    @Option(names = "--port", description = "Port (default 56332, or $ENGRAM_HTTP_PORT; 0 picks a free one)")
    Integer port;

    @Option(names = "--tokens-file", paramLabel = "FILE",
            description = "Bearer tokens, one per line (# comments); adds to $ENGRAM_TOKENS")
    Path tokensFile;

    @Option(names = "--no-auth", description = "Accept requests without a token (loopback addresses only)")
    boolean noAuth;

    @Option(names = "--allowed-host", paramLabel = "HOST", description = "Extra accepted Host header (repeatable)")
    List<String> allowedHosts = new ArrayList<>();

    @Option(names = "--allowed-origin", paramLabel = "ORIGIN", description = "Extra accepted Origin, e.g. https://app.example (repeatable)")
    List<String> allowedOrigins = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        Main main = root.main();
        EngramConfig config = root.config();
        String profileName = main.configLoader().profile(profile, main.profiles());
        HttpServerSettings settings = main.configLoader().http(host, port, tokensFile, noAuth, allowedHosts, allowedOrigins);
        Main.OpenEngine opened = main.openServerEngine(config, Main.Embedding.CONFIGURED);
        McpHttpServer server;
        try {
            server = McpHttpServer.start(settings, main.profile(profileName, config, opened::engine), Main.version(),
                    main.json().mapper(), new dev.engram.mcp.viewer.ViewerApi(opened.engine(), config.defaultZone()));
        } catch (Exception e) {
            opened.close();
            throw e;
        }
        main.err().println("engram " + Main.version() + " serving MCP (profile " + profileName + ") at " + server.endpoint()
                + (settings.noAuth() ? " without auth" : " (bearer tokens: " + settings.tokens().size() + ")")
                + "; graph viewer at " + server.endpoint().resolve(dev.engram.mcp.viewer.ViewerServlet.MOUNT + "/")
                + (settings.noAuth() ? "" : " (open it with #token=<token> after the URL)"));
        if (!HttpServerSettings.isLoopback(settings.host()) && settings.allowedHosts().isEmpty()) {
            // DNS-rebinding protection accepts only known Host headers: remote clients need theirs listed
            main.err().println("note: remote clients must reach this server by a name given with --allowed-host"
                    + " (e.g. --allowed-host mem.example.com); other Host headers are refused");
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            opened.close();
        }, "engram-shutdown"));
        server.join();
        // reached only when a shutdown hook stopped the server: exiting again would block
        return Main.SERVING;
    }
}
