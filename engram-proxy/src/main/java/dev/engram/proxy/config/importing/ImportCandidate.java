package dev.engram.proxy.config.importing;

import dev.engram.proxy.config.UpstreamConfig;
import java.util.List;

/**
 * One upstream found in another tool's configuration, mapped onto Engram's shape.
 *
 * @param source       where it was found, e.g. {@code ~/.claude.json} or {@code Cursor (project) .cursor/mcp.json}
 * @param projectLocal found in a file under the current directory, which a repository checkout can ship:
 *                     such an entry starts a command of someone else's choosing, so it needs an explicit yes
 * @param notes        what of the entry could not be carried over, one line each (never silently dropped)
 */
public record ImportCandidate(UpstreamConfig upstream, String source, boolean projectLocal, List<String> notes) {
    public ImportCandidate {
        notes = List.copyOf(notes);
    }
}
