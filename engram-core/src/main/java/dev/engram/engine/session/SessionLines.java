package dev.engram.engine.session;

import dev.engram.engine.MarkText;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sessions as the text of one store mark: a line per session, tab-separated fields (id, agent, host,
 * pid, branch, startedAt, lastSeen, then path and time pairs of the touched files), with backslash, tab
 * and newline escaped. A line that does not read back (written by a newer version, or damaged) is
 * skipped: presence is advisory, and the next heartbeat of that session writes it again.
 */
final class SessionLines {
    private SessionLines() {
    }

    static String encode(List<AgentSession> sessions) {
        StringBuilder b = new StringBuilder();
        for (AgentSession s : sessions) {
            List<String> f = new ArrayList<>(List.of(s.id(), nz(s.agent()), s.host(), Long.toString(s.pid()), nz(s.branch()),
                    s.startedAt().toString(), s.lastSeen().toString()));
            s.files().forEach((path, at) -> {
                f.add(path);
                f.add(at.toString());
            });
            for (int i = 0; i < f.size(); i++) {
                if (i > 0) b.append('\t');
                b.append(MarkText.escape(f.get(i)));
            }
            b.append('\n');
        }
        return b.toString();
    }

    static List<AgentSession> decode(String text) {
        List<AgentSession> out = new ArrayList<>();
        if (text == null || text.isEmpty()) return out;
        for (String line : text.split("\n")) {
            if (line.isEmpty()) continue;
            String[] f = line.split("\t", -1);
            if (f.length < 7 || (f.length - 7) % 2 != 0) continue;
            try {
                Map<String, Instant> files = new LinkedHashMap<>();
                for (int i = 7; i < f.length; i += 2) files.put(MarkText.unescape(f[i]), Instant.parse(f[i + 1]));
                out.add(new AgentSession(MarkText.unescape(f[0]), blankToNull(MarkText.unescape(f[1])), MarkText.unescape(f[2]), Long.parseLong(f[3]),
                        blankToNull(MarkText.unescape(f[4])), Instant.parse(f[5]), Instant.parse(f[6]), files));
            } catch (NumberFormatException | DateTimeParseException e) {
                // skipped, see the class comment
            }
        }
        return out;
    }



    private static String nz(String s) {
        return s == null ? "" : s;
    }

    private static String blankToNull(String s) {
        return s.isEmpty() ? null : s;
    }
}
