package dev.engram.engine;

import dev.engram.error.ConflictException;
import dev.engram.error.NotFoundException;
import dev.engram.memory.Importance;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryVersion;
import dev.engram.rank.QualityPolicy;
import dev.engram.spi.Embedder;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreTransaction;
import dev.engram.spi.StoredEmbedding;
import dev.engram.spi.SearchIndex;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

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
            if (cmd.action() == ForgetAction.RESTORE) {
                Optional<Memory> live = References.find(tx, cmd.ref(), cmd.zone());
                if (live.isEmpty()) {
                    return HardDeletion.find(tx, cmd.ref(), cmd.zone()).map(t -> HardDeletion.restore(tx, t, now))
                            .orElseThrow(() -> new NotFoundException(NotFoundException.memory(cmd.ref(), cmd.zone()).getMessage()
                                    + "; a hard-deleted memory can be restored for " + HardDeletion.RESTORE_WINDOW.toDays()
                                    + " days only"));
                }
                return unarchive(tx, live.get(), cmd, now);
            }
            if (cmd.action() == ForgetAction.PURGE) {
                return HardDeletion.purge(tx, cmd.ref(), cmd.zone());
            }
            Memory m = References.require(tx, cmd.ref(), cmd.zone());
            if (cmd.action() == ForgetAction.HARD) {
                Instant until = HardDeletion.delete(tx, m, now);
                return new ForgetResult(m, cmd.action(), m.status(), until, "");
            }
            if (m.status() == MemoryStatus.ARCHIVED) {
                throw new ConflictException("memory '" + m.key() + "' is already archived; use action 'restore'"
                        + " to bring it back or 'hard' to delete it");
            }
            Memory archived = m.toBuilder().status(MemoryStatus.ARCHIVED).updatedAt(now).build();
            tx.update(archived);
            return new ForgetResult(archived, cmd.action(), m.status());
        });
        index.catchUpAfterWrite();
        return result;
    }

    private static ForgetResult unarchive(StoreTransaction tx, Memory m, ForgetCommand cmd, Instant now) {
        if (m.status() == MemoryStatus.ACTIVE) {
            String deleted = HardDeletion.find(tx, cmd.ref(), cmd.zone()).filter(t -> !t.memory().id().equals(m.id()))
                    .map(t -> "; a hard-deleted memory " + t.memory().id() + " also had this key: restore it by that id").orElse("");
            throw new ConflictException("memory '" + m.key() + "' is active; only archived or superseded memories can be restored"
                    + deleted);
        }
        Memory restored = m.toBuilder().status(MemoryStatus.ACTIVE).supersededAt(null).supersededBy(null)
                .updatedAt(now).build();
        tx.update(restored);
        return new ForgetResult(restored, cmd.action(), m.status());
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
                    .importance(importance).relevance(cmd.relevance() != null ? cmd.relevance() : m.relevance())
                    .updatedAt(now).build();
            int links = (int) tx.edges(m.id()).stream().filter(e -> e.fromId().equals(m.id())).count();
            next = next.toBuilder().quality(QualityPolicy.score(next, links, now).total()).build();
            tx.update(next);
            if (cmd.content() != null && !cmd.content().equals(m.content())) {
                if (vector != null) tx.putEmbedding(m.id(), vector);
                else tx.clearEmbedding(m.id());
            }
            return next;
        });
        index.catchUpAfterWrite();
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
        index.catchUpAfterWrite();
        return pinned;
    }
}
