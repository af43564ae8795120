package dev.engram.engine;

import dev.engram.memory.Importance;
import dev.engram.memory.MemoryRules;
import dev.engram.memory.MemoryType;
import dev.engram.memory.Origin;
import java.util.List;

/**
 * Store or merge one memory. Optional values are null when absent: {@code key} (derived from the
 * content), {@code type} (fact), {@code importance} (automatic), {@code ttl} (never expires),
 * {@code file}, {@code pathScope}, {@code origin} (agent), {@code session}, {@code branch}.
 * {@code replace} lets new content overwrite the content stored under an existing key.
 * {@code mergeDuplicate} merges into a near-duplicate found by remember (when no key is given)
 * instead of creating a new memory next to it. {@code occurredAt} is when the remembered thing
 * happened (an ISO date or instant, or an age such as {@code 3d}), null when the caller did not say.
 * {@code notes} are named free-text fields written with the memory ({@link MemoryNotes}); empty for none.
 */
public record RememberCommand(String content, String key, MemoryType type, List<String> tags, String zone,
                              Importance importance, String ttl, List<LinkSpec> links, String file,
                              String pathScope, Origin origin, boolean replace, String session, String branch,
                              boolean mergeDuplicate, String occurredAt, Double relevance, java.util.Map<String, String> notes) {
    public RememberCommand {
        content = MemoryRules.content("content", content);
        key = key == null || key.isBlank() ? null : MemoryRules.key("key", key.strip());
        tags = MemoryRules.tags("tags", tags);
        zone = MemoryRules.newZone("zone", zone);
        ttl = ttl == null || ttl.isBlank() ? null : ttl.strip();
        links = links == null ? List.of() : List.copyOf(links);
        if (links.size() > MemoryRules.MAX_LINKS) {
            throw new dev.engram.error.InvalidArgumentException("links", "has " + links.size()
                    + " entries, over the limit of " + MemoryRules.MAX_LINKS);
        }
        file = MemoryRules.path("file", file);
        pathScope = MemoryRules.path("path_scope", pathScope);
        session = blankToNull(session);
        branch = blankToNull(branch);
        occurredAt = blankToNull(occurredAt);
        // the form is checked here, so a bad value is refused before anything runs; the engine reads it
        // against its own clock (an age such as 3d is relative to the write)
        if (occurredAt != null) MemoryRules.pointInTime("occurred_at", occurredAt, java.time.Instant.EPOCH);
        if (relevance != null && !(relevance >= dev.engram.memory.Memory.MIN_RELEVANCE
                && relevance <= dev.engram.memory.Memory.MAX_RELEVANCE)) {
            throw new dev.engram.error.InvalidArgumentException("relevance", "must be " + dev.engram.memory.Memory.MIN_RELEVANCE
                    + ".." + dev.engram.memory.Memory.MAX_RELEVANCE + ", got " + relevance);
        }
        notes = MemoryNotes.checked(notes);
    }

    public RememberCommand(String content, String key, MemoryType type, List<String> tags, String zone,
                           Importance importance, String ttl, List<LinkSpec> links, String file,
                           String pathScope, Origin origin, boolean replace, String session, String branch,
                           boolean mergeDuplicate, String occurredAt, Double relevance) {
        this(content, key, type, tags, zone, importance, ttl, links, file, pathScope, origin, replace, session, branch,
                mergeDuplicate, occurredAt, relevance, null);
    }

    public RememberCommand(String content, String key, MemoryType type, List<String> tags, String zone,
                           Importance importance, String ttl, List<LinkSpec> links, String file,
                           String pathScope, Origin origin, boolean replace, String session, String branch,
                           boolean mergeDuplicate, String occurredAt) {
        this(content, key, type, tags, zone, importance, ttl, links, file, pathScope, origin, replace, session, branch,
                mergeDuplicate, occurredAt, null);
    }

    public RememberCommand(String content, String key, MemoryType type, List<String> tags, String zone,
                           Importance importance, String ttl, List<LinkSpec> links, String file,
                           String pathScope, Origin origin, boolean replace, String session, String branch,
                           boolean mergeDuplicate) {
        this(content, key, type, tags, zone, importance, ttl, links, file, pathScope, origin, replace, session, branch,
                mergeDuplicate, null);
    }

    public RememberCommand(String content, String key, MemoryType type, List<String> tags, String zone,
                           Importance importance, String ttl, List<LinkSpec> links, String file,
                           String pathScope, Origin origin, boolean replace, String session, String branch) {
        this(content, key, type, tags, zone, importance, ttl, links, file, pathScope, origin, replace, session, branch, false);
    }

    /** The plain case: content only, everything else automatic. */
    public static RememberCommand of(String content) {
        return new RememberCommand(content, null, null, null, null, null, null, null, null, null, null, false, null, null);
    }

    public static Builder builder(String content) {
        return new Builder(content);
    }

    /** Named-argument construction, so a new field touches this record and its callers that use it; {@link #build()} validates. */
    public static final class Builder {
        private final String content;
        private String key, zone, ttl, file, pathScope, session, branch, occurredAt;
        private MemoryType type;
        private List<String> tags;
        private Importance importance;
        private List<LinkSpec> links;
        private Origin origin;
        private boolean replace, mergeDuplicate;
        private Double relevance;
        private java.util.Map<String, String> notes;

        public Builder(String content) {
            this.content = content;
        }

        public Builder key(String v) { key = v; return this; }
        public Builder type(MemoryType v) { type = v; return this; }
        public Builder tags(List<String> v) { tags = v; return this; }
        public Builder zone(String v) { zone = v; return this; }
        public Builder importance(Importance v) { importance = v; return this; }
        public Builder ttl(String v) { ttl = v; return this; }
        public Builder links(List<LinkSpec> v) { links = v; return this; }
        public Builder file(String v) { file = v; return this; }
        public Builder pathScope(String v) { pathScope = v; return this; }
        public Builder origin(Origin v) { origin = v; return this; }
        public Builder replace(boolean v) { replace = v; return this; }
        public Builder session(String v) { session = v; return this; }
        public Builder branch(String v) { branch = v; return this; }
        public Builder mergeDuplicate(boolean v) { mergeDuplicate = v; return this; }
        public Builder occurredAt(String v) { occurredAt = v; return this; }
        /** The caller-set weight ({@link dev.engram.memory.Memory#relevance()}); null keeps the default (1) or the stored one. */
        public Builder relevance(Double v) { relevance = v; return this; }
        /** Named free-text fields stored with the memory ({@link MemoryNotes}). */
        public Builder notes(java.util.Map<String, String> v) { notes = v; return this; }

        public RememberCommand build() {
            return new RememberCommand(content, key, type, tags, zone, importance, ttl, links, file, pathScope, origin,
                    replace, session, branch, mergeDuplicate, occurredAt, relevance, notes);
        }
    }

    static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
