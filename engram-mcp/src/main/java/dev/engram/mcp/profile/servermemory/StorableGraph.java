package dev.engram.mcp.profile.servermemory;

import dev.engram.analysis.TextCut;
import dev.engram.memory.MemoryRules;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A file's graph made storable, for an import: server-memory's own tools write what Engram's refuse (a blank name or
 * observation, an observation of any length, a lone UTF-16 surrogate), and refusing a whole file for one such item
 * left users who switched with {@code MEMORY_FILE_PATH} set looking at an empty memory (an outside probe's finding).
 * So each item is mended where its meaning survives and left out where nothing identifies it, and every change is
 * counted for the import's report:
 * <ul>
 *   <li>a lone surrogate becomes U+FFFD, the replacement character (names too: a relation naming the entity is mended
 *   the same way, so it still finds it);</li>
 *   <li>an observation longer than {@link MemoryRules#MAX_CONTENT_CHARS} is split into consecutive observations, at a
 *   line or word break near the limit where there is one;</li>
 *   <li>a name, type or relation type over the limit is cut to it;</li>
 *   <li>a blank observation is left out, and so is an entity with a blank name, with the relations naming it, and a
 *   relation with a blank end or type.</li>
 * </ul>
 * The file itself is never changed.
 */
record StorableGraph(KnowledgeGraph graph, List<String> changes) {

    static StorableGraph of(KnowledgeGraph file) {
        Counts n = new Counts();
        List<KnowledgeGraph.Entity> entities = new ArrayList<>();
        for (KnowledgeGraph.Entity e : file.entities()) {
            String name = n.label(e.name());
            if (name.isBlank()) {
                n.blankNames++;
                continue;
            }
            List<String> observations = new ArrayList<>();
            for (String o : e.observations()) {
                String text = n.mend(o);
                if (text.isBlank()) {
                    n.blankObservations++;
                } else if (text.length() > MemoryRules.MAX_CONTENT_CHARS) {
                    n.split++;
                    observations.addAll(pieces(text));
                } else {
                    observations.add(text);
                }
            }
            entities.add(new KnowledgeGraph.Entity(name, n.label(e.entityType()), observations));
        }
        List<KnowledgeGraph.Relation> relations = new ArrayList<>();
        for (KnowledgeGraph.Relation r : file.relations()) {
            String from = n.label(r.from()), to = n.label(r.to()), type = n.label(r.relationType());
            if (from.isBlank() || to.isBlank() || type.isBlank()) {
                n.blankRelations++;
            } else {
                relations.add(new KnowledgeGraph.Relation(from, to, type));
            }
        }
        return new StorableGraph(new KnowledgeGraph(entities, relations), n.report());
    }

    /** {@code text} in consecutive pieces of at most the limit, each cut at the last line break or space of its second half. */
    static List<String> pieces(String text) {
        int max = MemoryRules.MAX_CONTENT_CHARS;
        List<String> out = new ArrayList<>();
        int start = 0;
        while (text.length() - start > max) {
            int end = start + max;
            int cut = Math.max(text.lastIndexOf('\n', end - 1), text.lastIndexOf(' ', end - 1));
            end = cut > start + max / 2 ? cut + 1 : TextCut.atCodePoint(text, end); // never half a character
            String piece = text.substring(start, end).strip();
            if (!piece.isEmpty()) out.add(piece);
            start = end;
        }
        String last = text.substring(start).strip();
        if (!last.isEmpty()) out.add(last);
        return out;
    }

    private static final class Counts {
        int surrogates, cut, split, blankObservations, blankNames, blankRelations;

        /** Storable text: lone surrogates replaced. */
        String mend(String text) {
            StringBuilder out = null;
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                boolean paired = Character.isHighSurrogate(c) ? i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))
                        : !Character.isLowSurrogate(c) || i > 0 && Character.isHighSurrogate(text.charAt(i - 1));
                if (!paired) {
                    if (out == null) out = new StringBuilder(text.length()).append(text, 0, i);
                    out.append('\uFFFD');
                    surrogates++;
                } else if (out != null) {
                    out.append(c);
                }
            }
            return out == null ? text : out.toString();
        }

        /** A name or type: mended, and cut to the limit (without splitting a surrogate pair). */
        String label(String text) {
            String s = mend(text);
            if (s.length() <= MemoryRules.MAX_CONTENT_CHARS) return s;
            cut++;
            return TextCut.head(s, MemoryRules.MAX_CONTENT_CHARS);
        }

        List<String> report() {
            Map<String, Integer> said = new LinkedHashMap<>();
            said.put("lone UTF-16 surrogate(s) replaced by U+FFFD", surrogates);
            said.put("observation(s) over " + MemoryRules.MAX_CONTENT_CHARS + " characters split into several", split);
            said.put("name(s) or type(s) over " + MemoryRules.MAX_CONTENT_CHARS + " characters cut to the limit", cut);
            said.put("blank observation(s) left out", blankObservations);
            said.put("entit(ies) with a blank name left out", blankNames);
            said.put("relation(s) with a blank end or type left out", blankRelations);
            List<String> out = new ArrayList<>();
            said.forEach((what, count) -> {
                if (count > 0) out.add(count + " " + what);
            });
            return out;
        }
    }
}
