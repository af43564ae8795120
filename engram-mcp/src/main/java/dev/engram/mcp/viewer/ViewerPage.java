package dev.engram.mcp.viewer;

import dev.engram.mcp.json.JsonText;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The viewer's one page ({@code viewer.html} beside this class) and the d3 bundle from its WebJar, both
 * read from the classpath once. Served over HTTP the page loads d3 from {@code assets/} and its data from
 * {@code api/}; as the MCP Apps resource it is self-contained: d3 and a snapshot of the graph inlined,
 * because a host renders it in a sandbox that reaches no server.
 */
public final class ViewerPage {
    /** The d3 WebJar's bundle (org.webjars.npm:d3, every module in one file). */
    static final String D3_RESOURCE = "/META-INF/resources/webjars/d3/7.9.0/dist/d3.min.js";
    /** The MCP Apps resource type: HTML a host renders as an app (SEP-1865, toon's ui://viewer). */
    public static final String MCP_APP_MIME = "text/html;profile=mcp-app";
    private static final String D3_SLOT = "<!--engram:d3-->";
    private static final String BOOT_SLOT = "/*engram:boot*/null";

    private final String template;
    private final byte[] d3;
    private final JsonText json;

    public ViewerPage(JsonText json) {
        this.json = json;
        this.template = new String(read("viewer.html"), StandardCharsets.UTF_8);
        this.d3 = read(D3_RESOURCE);
        if (!template.contains(D3_SLOT) || !template.contains(BOOT_SLOT)) {
            throw new IllegalStateException("viewer.html lacks its d3 or boot slot");
        }
    }

    /** The d3 bundle's bytes, served at {@code assets/d3.min.js}. */
    public byte[] d3() {
        return d3.clone();
    }

    /**
     * The page for a browser: d3 and the data come from the server the page was loaded from. The shell loads without
     * a token, so it names no zone: the zones, and which to open first, come from the authenticated api/zones.
     */
    public String served() {
        return fill("<script src=\"assets/d3.min.js\"></script>", Map.of("mode", "http"));
    }

    /** The self-contained page (ui://viewer): d3 inlined, the graph snapshot in the page. */
    public String inlined(Map<String, Object> snapshot) {
        String bundle = new String(d3, StandardCharsets.UTF_8);
        return fill("<script>" + scriptSafe(bundle) + "</script>", Map.of("mode", "embedded", "snapshot", snapshot));
    }

    private String fill(String d3Tag, Map<String, Object> boot) {
        return template.replace(D3_SLOT, d3Tag).replace(BOOT_SLOT, jsonInScript(json.write(boot)));
    }

    /**
     * JSON placed inside a script element: every {@code <}, {@code >} and {@code &} as a JSON escape, so no memory's
     * text can close the element or put the HTML parser in a script's escaped states ({@code <!--<script>} would
     * swallow the closing tag and the page would never run). They can only be inside JSON strings, where the escape
     * reads back the same.
     */
    static String jsonInScript(String json) {
        return json.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
                .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029");
    }

    /** Text placed inside a script element must not close it ({@code </script}) or break JS parsing (U+2028/9). */
    static String scriptSafe(String text) {
        return text.replace("</", "<\\/").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029");
    }

    private static byte[] read(String name) {
        try (InputStream in = ViewerPage.class.getResourceAsStream(name)) {
            if (in == null) throw new IllegalStateException("missing from the classpath: " + name);
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
