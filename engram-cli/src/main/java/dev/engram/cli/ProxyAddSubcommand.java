package dev.engram.cli;

import dev.engram.proxy.config.CompressionMode;
import dev.engram.proxy.config.ProxyConfigFile;
import dev.engram.proxy.config.ToolOverride;
import dev.engram.proxy.config.UpstreamConfig;
import dev.engram.proxy.config.UpstreamTransport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "add", mixinStandardHelpOptions = true, description = {"Add an upstream MCP server to <store>/proxy.json.",
        "stdio: --command npx --args \"-y @modelcontextprotocol/server-filesystem /tmp\" --prefix fs [--env TOKEN]",
        "HTTP:  --url http://127.0.0.1:8931/mcp --header \"Authorization=Bearer …\" --prefix web",
        "SSE:   --transport sse --url https://host/sse --prefix old"})
final class ProxyAddSubcommand implements Callable<Integer> {
    @ParentCommand
    ProxySubcommand proxy;

    @Parameters(index = "0", paramLabel = "NAME", description = "Name of the upstream (shown in titles as [NAME])")
    String name;

    @Option(names = "--prefix", required = true, description = "Tool name prefix: tools appear as PREFIX__tool")
    String prefix;

    @Option(names = "--command", description = "Program to start (stdio upstream)")
    String command;

    @Option(names = "--args", description = "Its arguments, one string, split like a shell (quotes group)")
    String args;

    @Option(names = "--env", paramLabel = "NAME", description = "A variable of this environment to pass through (repeatable);"
            + " only PATH and HOME pass otherwise")
    List<String> env = new ArrayList<>();

    @Option(names = "--url", description = "Streamable HTTP endpoint, or with --transport sse the SSE stream (instead of --command)")
    String url;

    @Option(names = "--transport", paramLabel = "T", description = "stdio (with --command), streamable_http (default with --url)"
            + " or sse (the older HTTP+SSE transport, e.g. --url https://host/sse)")
    String transport;

    @Option(names = "--header", paramLabel = "K=V", description = "HTTP header to send (repeatable)")
    Map<String, String> headers = new LinkedHashMap<>();

    @Option(names = "--compression", description = "auto (default), none, truncate, selective, progressive, hybrid,"
            + " schema_pruning, extract_fields, skeleton, llm_summary (with a chat endpoint, docs/proxy.md)")
    String compression;

    @Option(names = "--max-chars", description = "Result budget in characters (default ${DEFAULT-VALUE})")
    int maxChars = UpstreamConfig.DEFAULT_MAX_RESULT_CHARS;

    @Option(names = "--cache-ttl", description = "Seconds a read-only tool's result is cached; 0 = never (default ${DEFAULT-VALUE})")
    int cacheTtl = UpstreamConfig.DEFAULT_CACHE_TTL_SECONDS;

    @Option(names = "--override", paramLabel = "TOOL:KEY=VALUE", description = "Per-tool setting (repeatable): compression,"
            + " max_result_chars, cache_ttl_seconds, hidden or description_override, e.g. read_text_file:compression=selective")
    List<String> overrides = new ArrayList<>();

    @Override
    public Integer call() {
        proxy.root.textOnly("proxy add", "it prints one line saying what it added");
        if ((command == null) == (url == null)) {
            throw new ConfigException("proxy add", name, "needs exactly one of --command (stdio) or --url (HTTP)");
        }
        String kind = transport == null ? (command != null ? "stdio" : "streamable_http")
                : transport.strip().toLowerCase(java.util.Locale.ROOT).replace('-', '_');
        if (kind.equals("http")) kind = "streamable_http";
        if (!List.of("stdio", "streamable_http", "sse").contains(kind)) {
            throw new ConfigException("--transport", transport, "must be stdio, streamable_http or sse");
        }
        if (kind.equals("stdio") != (command != null)) {
            throw new ConfigException("--transport", kind, kind.equals("stdio") ? "needs --command, not --url" : "needs --url, not --command");
        }
        UpstreamTransport t = switch (kind) {
            case "stdio" -> new UpstreamTransport.Stdio(command, ShellWords.split(args == null ? "" : args), env);
            case "sse" -> new UpstreamTransport.Sse(url, headers);
            default -> new UpstreamTransport.Http(url, headers);
        };
        Map<String, ToolOverride> tools = new LinkedHashMap<>();
        for (String o : overrides) {
            int colon = o.lastIndexOf(':', o.indexOf('=') < 0 ? o.length() : o.indexOf('='));
            int eq = o.indexOf('=', colon + 1);
            if (colon <= 0 || eq < 0) {
                throw new ConfigException("--override", o, "must look like TOOL:KEY=VALUE, e.g. read_text_file:compression=none");
            }
            String tool = o.substring(0, colon);
            tools.put(tool, tools.getOrDefault(tool, ToolOverride.NONE).with(o.substring(colon + 1, eq), o.substring(eq + 1)));
        }
        UpstreamConfig upstream = new UpstreamConfig(name, prefix, t,
                compression == null ? CompressionMode.AUTO : CompressionMode.parse("compression", compression), maxChars, cacheTtl,
                tools);
        Main main = proxy.root.main();
        ProxyConfigFile file = new ProxyConfigFile(proxy.root.config().storeDir(), main.json().mapper());
        file.save(file.load().with(upstream));
        main.out().println("Added upstream '" + name + "' (tools as " + prefix + "__<tool>) to " + file.path());
        return 0;
    }
}
