package dev.engram.cli.hook;

import dev.engram.mcp.json.JsonText;
import java.io.InputStream;

/** Reading the event for the CLI (HookInput itself stays package-private). */
public final class HookInputs {
    private HookInputs() {
    }

    /** The raw text of the event, for hooks that report a payload they cannot read instead of ignoring it. */
    public static String readText(InputStream in, HookSettings settings) {
        return HookInput.readText(in, settings.stdinTimeout());
    }

    public static HookInput read(InputStream in, HookSettings settings, JsonText json) {
        return HookInput.read(in, settings.stdinTimeout(), json::readObject);
    }
}
