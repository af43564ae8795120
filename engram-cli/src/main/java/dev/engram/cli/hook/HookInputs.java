package dev.engram.cli.hook;

import dev.engram.mcp.json.JsonText;
import java.io.InputStream;

/** Reading the event for the CLI (HookInput itself stays package-private). */
public final class HookInputs {
    private HookInputs() {
    }

    public static HookInput read(InputStream in, HookSettings settings, JsonText json) {
        return HookInput.read(in, settings.stdinTimeout(), json::readObject);
    }
}
