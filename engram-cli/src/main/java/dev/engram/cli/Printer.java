package dev.engram.cli;

import dev.engram.mcp.json.JsonText;
import java.io.PrintStream;
import java.util.Map;
import java.util.function.Supplier;

/** Prints a result as readable text, or as one JSON document with {@code --json}; both come from the renderers. */
final class Printer {
    private final PrintStream out;
    private final boolean json;
    private final Supplier<JsonText> jsonText;

    Printer(PrintStream out, boolean json, Supplier<JsonText> jsonText) {
        this.out = out;
        this.json = json;
        this.jsonText = jsonText;
    }

    void print(String text, Map<String, Object> structured) {
        out.println(json ? jsonText.get().write(structured) : text);
        out.flush();
    }
}
