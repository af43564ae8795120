package dev.engram.render;

/** The two output formats every result has: compact text for reading, maps for JSON. */
public record Renderers(TextRenderer text, StructuredRenderer structured) {
    public static Renderers standard() {
        return new Renderers(new TextRenderer(), new StructuredRenderer());
    }
}
