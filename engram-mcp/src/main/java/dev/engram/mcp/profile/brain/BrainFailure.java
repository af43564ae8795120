package dev.engram.mcp.profile.brain;

import dev.engram.error.EngramUserException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A refusal in brain-tools' own shape ({@code {"success": false, "error": …, "message": …}}), sent as
 * an {@code isError} result whose text is that JSON, so agents written for brain-tools read it as before.
 */
final class BrainFailure extends EngramUserException {
    BrainFailure(Map<String, Object> body) {
        super(BrainJson.pretty(body));
    }

    static BrainFailure of(String error, String message) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("success", false);
        body.put("error", error);
        if (message != null) body.put("message", message);
        return new BrainFailure(body);
    }
}
