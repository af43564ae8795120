package dev.engram.cli;

import dev.engram.mcp.viewer.ViewerApi;
import dev.engram.mcp.viewer.ViewerPage;
import dev.engram.mcp.viewer.ViewerServer;
import dev.engram.mcp.viewer.ViewerServlet;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(name = "viewer", mixinStandardHelpOptions = true,
        description = "Serve the memory graph viewer on this machine (127.0.0.1 only, no token); prints its URL on stderr.")
final class ViewerSubcommand implements Callable<Integer> {
    @ParentCommand
    EngramCommand root;

    @Option(names = "--port", description = "Port (default " + ViewerServer.DEFAULT_PORT + "; 0 picks a free one)")
    Integer port;

    @Option(names = "--open", description = "Open the page in the default browser")
    boolean open;

    @Override
    public Integer call() throws Exception {
        Main main = root.main();
        root.textOnly("viewer", "it serves a web page and prints its address");
        EngramConfig config = root.config();
        int p = port == null ? ViewerServer.DEFAULT_PORT : port;
        if (p < 0 || p > 65_535) {
            throw new ConfigException("--port", "flag", "must be 0..65535, got " + p + " (0 picks a free port)");
        }
        Main.OpenEngine opened = main.openServerEngine(config, Main.Embedding.CONFIGURED);
        ViewerServer server;
        try {
            ViewerServlet servlet = new ViewerServlet(new ViewerApi(opened.engine(), config.defaultZone()),
                    new ViewerPage(main.json()), main.json(), ViewerServlet.loopbackHosts());
            server = ViewerServer.start(p, servlet);
        } catch (Exception e) {
            opened.close();
            if (e instanceof IOException && String.valueOf(e.getMessage()).contains("bind")) {
                throw new ConfigException("--port", port == null ? "default" : "flag", p + " is taken on 127.0.0.1; pass --port N (0 picks a free one)");
            }
            throw e;
        }
        main.err().println("engram " + Main.version() + " viewer (zone " + config.defaultZone() + ") at " + server.url());
        if (open) browse(server.url(), main);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (Exception e) {
                main.err().println("stopping the viewer: " + e.getMessage());
            }
            opened.close();
        }, "engram-shutdown"));
        server.join();
        return Main.SERVING;
    }

    /** The platform's opener; a machine without one gets the URL to open by hand. */
    private static void browse(URI url, Main main) {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        List<String> command = os.contains("mac") ? List.of("open", url.toString())
                : os.contains("win") ? List.of("rundll32", "url.dll,FileProtocolHandler", url.toString())
                : List.of("xdg-open", url.toString());
        try {
            new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            main.err().println("could not start a browser (" + command.get(0) + "); open " + url + " yourself");
        }
    }
}
