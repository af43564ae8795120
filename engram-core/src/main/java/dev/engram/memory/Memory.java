package dev.engram.memory;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One self-contained piece of knowledge (GUIDE §4). Immutable; change it with {@link #toBuilder()}.
 * Optional values are {@code null} when absent: {@code name}, {@code entityType}, {@code file},
 * {@code pathScope}, {@code importance} (automatic), and within the groups {@code occurredAt},
 * {@code expiresAt}, {@code lastAccessedAt}, {@code lastVerifiedAt}, {@code session}, {@code branch} and
 * the supersession.
 * <p>{@code key} is the slug a memory is addressed by natively; {@code name} is a display name kept
 * exactly as a graph profile's caller wrote it ("John Smith", Korean text), unique in its zone when set.
 * {@code relevance} is a caller-set weight (brain-tools' relevanceScore) in [0.01, 25], 1 by default.
 * The fields that change together are grouped ({@link Times}, {@link Usage}, {@link Review},
 * {@link Provenance}, {@link Supersession}), so a new field of one concern touches its group; the flat
 * accessors ({@code createdAt()}, {@code accessCount()}, …) and the flat {@link Builder} stay for callers.
 * The tier is not a field: it follows from use and is computed when read by the lifecycle policy's tier rules
 * ({@link dev.engram.engine.lifecycle.LifecyclePolicy#tier}).
 */
public record Memory(
        String id,
        String key,
        String name,
        String zone,
        MemoryType type,
        String entityType,
        String content,
        List<String> tags,
        String file,
        String pathScope,
        Importance importance,
        double quality,
        double confidence,
        double relevance,
        MemoryStatus status,
        int pinPriority,
        Times times,
        Usage usage,
        Review review,
        Provenance provenance,
        Supersession supersession) {

    /**
     * When: recorded ({@code createdAt}), last changed, when the remembered thing happened as the caller
     * said ({@code occurredAt}, bi-temporal), and when it expires.
     */
    public record Times(Instant createdAt, Instant updatedAt, Instant occurredAt, Instant expiresAt) {
        public Times {
            Objects.requireNonNull(createdAt, "createdAt");
            Objects.requireNonNull(updatedAt, "updatedAt");
        }
    }

    /**
     * Reads: how often recall returned the memory, and when last (brain-tools' readCount and lastRead);
     * and when maintenance last wrote the typed decay back into the importance ({@code lastDecayAt}, null
     * until it first does), so the fading computed on read continues from there instead of counting the
     * same days twice ({@link dev.engram.rank.TypedDecay}).
     */
    public record Usage(long accessCount, Instant lastAccessedAt, Instant lastDecayAt) {
    }

    /** Spaced repetition: days between reviews, the last verification and how many there were. */
    public record Review(int intervalDays, Instant lastVerifiedAt, int verifyCount) {
        public Review {
            if (intervalDays < 1) throw new IllegalArgumentException("reviewIntervalDays must be >= 1, got " + intervalDays);
            if (verifyCount < 0) throw new IllegalArgumentException("verifyCount must be >= 0, got " + verifyCount);
        }
    }

    /** Who asserted it, and in which client session and git branch it was written. */
    public record Provenance(Origin origin, String session, String branch) {
        public Provenance {
            Objects.requireNonNull(origin, "origin");
        }
    }

    /** Set when another memory replaced this one: when, and by which (both null otherwise). */
    public record Supersession(Instant at, String by) {
    }

    public Memory {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(zone, "zone");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(content, "content");
        tags = List.copyOf(tags);
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(times, "times");
        Objects.requireNonNull(usage, "usage");
        Objects.requireNonNull(review, "review");
        Objects.requireNonNull(provenance, "provenance");
        Objects.requireNonNull(supersession, "supersession");
        if (quality < 0 || quality > 1) throw new IllegalArgumentException("quality must be 0..1, got " + quality);
        if (confidence < 0 || confidence > 1) throw new IllegalArgumentException("confidence must be 0..1, got " + confidence);
        if (pinPriority < 0 || pinPriority > 5) throw new IllegalArgumentException("pinPriority must be 0..5, got " + pinPriority);
        // written as !(valid) so that NaN is refused too
        if (!(relevance >= MIN_RELEVANCE && relevance <= MAX_RELEVANCE)) {
            throw new IllegalArgumentException("relevance must be " + MIN_RELEVANCE + ".." + MAX_RELEVANCE + ", got " + relevance);
        }
        if (name != null && name.isEmpty()) throw new IllegalArgumentException("name must be null or non-empty");
    }

    /** Bounds of {@link #relevance}: brain-tools' mark_important multiplies or divides by 10 within them. */
    public static final double MIN_RELEVANCE = 0.01, MAX_RELEVANCE = 25;
    /** A new memory is due for review after a week (brain-tools' default interval). */
    public static final int DEFAULT_REVIEW_INTERVAL_DAYS = 7;

    public Instant createdAt() { return times.createdAt(); }
    public Instant updatedAt() { return times.updatedAt(); }
    public Instant occurredAt() { return times.occurredAt(); }
    public Instant expiresAt() { return times.expiresAt(); }
    public long accessCount() { return usage.accessCount(); }
    public Instant lastAccessedAt() { return usage.lastAccessedAt(); }
    public Instant lastDecayAt() { return usage.lastDecayAt(); }
    public int reviewIntervalDays() { return review.intervalDays(); }
    public Instant lastVerifiedAt() { return review.lastVerifiedAt(); }
    public int verifyCount() { return review.verifyCount(); }
    public Origin origin() { return provenance.origin(); }
    public String session() { return provenance.session(); }
    public String branch() { return provenance.branch(); }
    public Instant supersededAt() { return supersession.at(); }
    public String supersededBy() { return supersession.by(); }

    public boolean pinned() {
        return pinPriority > 0;
    }

    public boolean expiredAt(Instant t) {
        Instant expires = times.expiresAt();
        return expires != null && !expires.isAfter(t);
    }

    /**
     * This memory once recalled {@code times} more times, the last at {@code last} unless it was read later already.
     * Two new objects where
     * {@link #toBuilder()} makes seven: a store's access flush patches its cached rows with this, and in a stream of
     * recalls those rows live long enough for every young collection to copy them (docs/benchmarks.md, "Link counts
     * beside the cached rows").
     */
    public Memory accessed(long times, Instant last) {
        Instant before = usage.lastAccessedAt();
        Instant latest = before != null && before.isAfter(last) ? before : last; // as the stores write it: never backwards
        return new Memory(id, key, name, zone, type, entityType, content, tags, file, pathScope, importance, quality,
                confidence, relevance, status, pinPriority, this.times, new Usage(usage.accessCount() + times, latest,
                usage.lastDecayAt()), review, provenance, supersession);
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Mutable copy of a memory's fields; {@link #build()} validates. */
    public static final class Builder {
        private String id, key, name, zone = "default", entityType, content, file, pathScope, session, branch, supersededBy;
        private MemoryType type = MemoryType.FACT;
        private List<String> tags = List.of();
        private Importance importance;
        private double quality, confidence = 1.0;
        private MemoryStatus status = MemoryStatus.ACTIVE;
        private Instant createdAt, updatedAt, lastAccessedAt, lastDecayAt, expiresAt, occurredAt, lastVerifiedAt, supersededAt;
        private long accessCount;
        private int reviewIntervalDays = DEFAULT_REVIEW_INTERVAL_DAYS, pinPriority, verifyCount;
        private double relevance = 1.0;
        private Origin origin = Origin.AGENT;

        private Builder() {
        }

        private Builder(Memory m) {
            id = m.id; key = m.key; name = m.name; zone = m.zone; type = m.type; entityType = m.entityType;
            content = m.content; tags = m.tags;
            createdAt = m.createdAt(); updatedAt = m.updatedAt(); occurredAt = m.occurredAt(); expiresAt = m.expiresAt();
            accessCount = m.accessCount(); lastAccessedAt = m.lastAccessedAt(); lastDecayAt = m.lastDecayAt();
            reviewIntervalDays = m.reviewIntervalDays(); lastVerifiedAt = m.lastVerifiedAt(); verifyCount = m.verifyCount();
            origin = m.origin(); session = m.session(); branch = m.branch();
            supersededAt = m.supersededAt(); supersededBy = m.supersededBy();
            file = m.file; pathScope = m.pathScope; importance = m.importance; quality = m.quality;
            confidence = m.confidence; relevance = m.relevance; status = m.status; pinPriority = m.pinPriority;
        }

        public Builder id(String v) { id = v; return this; }
        public Builder key(String v) { key = v; return this; }
        public Builder name(String v) { name = v; return this; }
        public Builder entityType(String v) { entityType = v; return this; }
        public Builder zone(String v) { zone = v; return this; }
        public Builder type(MemoryType v) { type = v; return this; }
        public Builder content(String v) { content = v; return this; }
        public Builder tags(List<String> v) { tags = v; return this; }
        public Builder file(String v) { file = v; return this; }
        public Builder pathScope(String v) { pathScope = v; return this; }
        public Builder importance(Importance v) { importance = v; return this; }
        public Builder quality(double v) { quality = v; return this; }
        public Builder confidence(double v) { confidence = v; return this; }
        public Builder status(MemoryStatus v) { status = v; return this; }
        public Builder createdAt(Instant v) { createdAt = v; return this; }
        public Builder updatedAt(Instant v) { updatedAt = v; return this; }
        public Builder lastAccessedAt(Instant v) { lastAccessedAt = v; return this; }
        public Builder accessCount(long v) { accessCount = v; return this; }
        public Builder lastDecayAt(Instant v) { lastDecayAt = v; return this; }
        public Builder expiresAt(Instant v) { expiresAt = v; return this; }
        public Builder occurredAt(Instant v) { occurredAt = v; return this; }
        public Builder reviewIntervalDays(int v) { reviewIntervalDays = v; return this; }
        public Builder lastVerifiedAt(Instant v) { lastVerifiedAt = v; return this; }
        public Builder verifyCount(int v) { verifyCount = v; return this; }
        public Builder relevance(double v) { relevance = v; return this; }
        public Builder origin(Origin v) { origin = v; return this; }
        public Builder session(String v) { session = v; return this; }
        public Builder branch(String v) { branch = v; return this; }
        public Builder pinPriority(int v) { pinPriority = v; return this; }
        public Builder supersededAt(Instant v) { supersededAt = v; return this; }
        public Builder supersededBy(String v) { supersededBy = v; return this; }

        public Memory build() {
            return new Memory(id, key, name, zone, type, entityType, content, tags, file, pathScope, importance,
                    quality, confidence, relevance, status, pinPriority,
                    new Times(createdAt, updatedAt, occurredAt, expiresAt), new Usage(accessCount, lastAccessedAt, lastDecayAt),
                    new Review(reviewIntervalDays, lastVerifiedAt, verifyCount), new Provenance(origin, session, branch),
                    new Supersession(supersededAt, supersededBy));
        }
    }
}
