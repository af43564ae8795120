package dev.engram.engine;

import dev.engram.error.ConflictException;
import dev.engram.memory.Importance;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryVersion;
import dev.engram.rank.QualityPolicy;
import dev.engram.spi.Embedder;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoredEmbedding;
import dev.engram.spi.SearchIndex;
import java.time.Clock;
import java.time.Instant;

/** Forget (archive, delete, restore), amend with version history, and pins. */
final class LifecycleOperation {
    private final MemoryStore store;
    private final SearchIndex index;
    private final Clock clock;
    private final Embedder embedder;

    LifecycleOperation(MemoryStore store, SearchIndex index, Clock clock, Embedder embedder) {
        this.store = store;
        this.index = index;
        this.clock = clock;
        this.embedder = embedder;
    }

    ForgetResult forget(ForgetCommand cmd) {
        Instant now = clock.instant();
        ForgetResult result = store.write(tx -> {
            Memory m = References.require(tx, cmd.ref(), cmd.zone());
            switch (cmd.action()) {
                case HARD -> {
                    tx.delete(m.id());
                    return new ForgetResult(m, cmd.action(), m.status());
                }
                case SOFT -> {
                    if (m.status() == MemoryStatus.ARCHIVED) {
                        throw new ConflictException("memory '" + m.key() + "' is already archived; use action 'restore'"
                                + " to bring it back or 'hard' to delete it");
                    }
                    Memory archived = m.toBuilder().status(MemoryStatus.ARCHIVED).updatedAt(now).build();
                    tx.update(archived);
                    return new ForgetResult(archived, cmd.action(), m.status());
                }
                default -> {
                    if (m.status() == MemoryStatus.ACTIVE) {
                        throw new ConflictException("memory '" + m.key() + "' is active; only archived or superseded memories can be restored");
                    }
                    Memory restored = m.toBuilder().status(MemoryStatus.ACTIVE).supersededAt(null).supersededBy(null)
                            .updatedAt(now).build();
                    tx.update(restored);
                    return new ForgetResult(restored, cmd.action(), m.status());
                }
            }
        });
        index.catchUpSoon();
        return result;
    }

    AmendResult amend(AmendCommand cmd) {
        Instant now = clock.instant();
        StoredEmbedding vector = cmd.content() == null ? null : Embeddings.embed(embedder, cmd.content()).orElse(null);
        Memory amended = store.write(tx -> {
            Memory m = References.require(tx, cmd.ref(), cmd.zone());
            tx.addVersion(new MemoryVersion(m.id(), tx.versionCount(m.id()) + 1, m.content(), m.tags(), m.importance(), now));
            Importance importance = cmd.importance() != null ? cmd.importance() : m.importance();
            Memory next = m.toBuilder()
                    .content(cmd.content() != null ? cmd.content() : m.content())
                    .tags(cmd.tags() != null ? cmd.tags() : m.tags())
                    .importance(importance).updatedAt(now).build();
            int links = (int) tx.edges(m.id()).stream().filter(e -> e.fromId().equals(m.id())).count();
            next = next.toBuilder().quality(QualityPolicy.score(next, links, now).total()).build();
            tx.update(next);
            if (cmd.content() != null && !cmd.content().equals(m.content())) {
                if (vector != null) tx.putEmbedding(m.id(), vector);
                else tx.clearEmbedding(m.id());
            }
            return next;
        });
        index.catchUpSoon();
        return new AmendResult(amended, store.versions(amended.id()));
    }

    Memory pin(PinCommand cmd) {
        Instant now = clock.instant();
        Memory pinned = store.write(tx -> {
            Memory m = References.require(tx, cmd.ref(), cmd.zone());
            Memory next = m.toBuilder().pinPriority(cmd.priority()).updatedAt(now).build();
            tx.update(next);
            return next;
        });
        index.catchUpSoon();
        return pinned;
    }
}
