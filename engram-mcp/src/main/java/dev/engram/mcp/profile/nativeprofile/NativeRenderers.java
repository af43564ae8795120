package dev.engram.mcp.profile.nativeprofile;

/**
 * The native profile's presentation: compact text for reading, maps for JSON. The CLI prints with
 * it too, since its output is the native face. The text renderer is also the native cost
 * ({@link dev.engram.engine.ResultCost}): budgets cut what this text prints.
 */
public record NativeRenderers(TextRenderer text, StructuredRenderer structured) {
    public static NativeRenderers standard() {
        return new NativeRenderers(new TextRenderer(), new StructuredRenderer());
    }
}
