package dev.engram.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.ConflictException;
import dev.engram.error.NotFoundException;
import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryType;
import dev.engram.testing.PlainCost;
import dev.engram.spi.StoredEmbedding;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Hard forget keeps a tombstone for {@link Engine#RESTORE_WINDOW}; restore undoes it until then. */
class HardDeletionTest {
    private static final PlainCost COST = PlainCost.INSTANCE;

    private final EngineFixture f = new EngineFixture();

    private ForgetResult forget(String ref, ForgetAction action) {
        return f.engine.forget(new ForgetCommand(ref, null, action));
    }

    private ExportRecord record(String id) {
        List<ExportRecord> out = new java.util.ArrayList<>();
        f.engine.export(null, out::add);
        return out.stream().filter(r -> r.memory().id().equals(id)).findFirst().orElseThrow();
    }

    @Test
    void restoreUndoesAHardForgetWithEdgesVersionsAndVector() {
        f.remember("cause", "Timeouts came from DNS", MemoryType.ERROR, List.of("network"));
        f.remember("fix", "Cache DNS lookups", MemoryType.DECISION, List.of("network"));
        f.engine.link(new LinkCommand("cause", "fix", EdgeType.RESOLVED_BY, null, false));
        f.engine.link(new LinkCommand("fix", "cause", EdgeType.RELATED, null, false));
        f.clock.advance(Duration.ofMinutes(1));
        f.engine.amend(new AmendCommand("cause", null, "Timeouts came from slow DNS", null, null));
        Memory cause = f.store.getByKey("default", "cause").orElseThrow();
        StoredEmbedding vector = new StoredEmbedding("m1", new float[] {0.5f, -0.25f});
        f.store.write(tx -> {
            tx.putEmbedding(cause.id(), vector);
            return null;
        });
        ExportRecord before = record(cause.id());
        List<Edge> edges = f.store.edges(cause.id());

        f.clock.advance(Duration.ofHours(1));
        ForgetResult deleted = forget("cause", ForgetAction.HARD);
        assertEquals(f.clock.instant().plus(Engine.RESTORE_WINDOW), deleted.restorableUntil());
        assertEquals(Optional.empty(), f.store.get(cause.id()));
        assertEquals(List.of(), f.store.edges(f.store.getByKey("default", "fix").orElseThrow().id()));
        assertTrue(f.engine.recall(EngineFixture.query("slow DNS timeouts"), COST).results().stream()
                .noneMatch(r -> r.memory().id().equals(cause.id())), "a deleted memory is not recalled");

        f.clock.advance(Engine.RESTORE_WINDOW.minusMillis(1));
        ForgetResult restored = forget("cause", ForgetAction.RESTORE);

        assertEquals(cause, restored.memory(), "every field as it was");
        assertEquals(null, restored.previousStatus(), "was deleted");
        assertEquals("", restored.note());
        assertEquals(before, record(cause.id()), "memory, outgoing edges and versions as before the delete");
        assertEquals(edges, f.store.edges(cause.id()));
        assertEquals(Optional.of(vector), f.store.embedding(cause.id()));
        assertEquals("cause", f.engine.recall(EngineFixture.query("slow DNS timeouts"), COST).results().get(0).memory().key());
        var again = assertThrows(ConflictException.class, () -> forget("cause", ForgetAction.RESTORE));
        assertTrue(again.getMessage().contains("is active"), again.getMessage());
    }

    @Test
    void afterTheWindowRestoreSaysTheMemoryIsGoneForGood() {
        f.remember("old", "An obsolete note", MemoryType.FACT, List.of("x"));
        forget("old", ForgetAction.HARD);
        f.clock.advance(Engine.RESTORE_WINDOW);
        var gone = assertThrows(NotFoundException.class, () -> forget("old", ForgetAction.RESTORE));
        assertTrue(gone.getMessage().contains("more than 7 days ago: it is gone for good"), gone.getMessage());
        assertEquals(0, f.store.count());
    }

    @Test
    void restoringWhatWasNeverDeletedSaysHowLongDeletionsAreKept() {
        var none = assertThrows(NotFoundException.class, () -> forget("never-existed", ForgetAction.RESTORE));
        assertTrue(none.getMessage().startsWith("no memory with id or key 'never-existed' in zone 'default'"), none.getMessage());
        assertTrue(none.getMessage().endsWith("a hard-deleted memory can be restored for 7 days only"), none.getMessage());
    }

    @Test
    void theKeyIsFreeAtOnceAndARestoreBesideItsNewOwnerTakesAnotherKey() {
        Memory first = f.remember("pool", "The pool has 8 connections", MemoryType.FACT, List.of("redis")).memory();
        forget("pool", ForgetAction.HARD);
        Memory second = f.remember("pool", "The pool has 64 connections", MemoryType.FACT, List.of("redis")).memory();
        assertNotEquals(first.id(), second.id());

        var byKey = assertThrows(ConflictException.class, () -> forget("pool", ForgetAction.RESTORE));
        assertTrue(byKey.getMessage().contains("a hard-deleted memory " + first.id() + " also had this key: restore it by that id"),
                byKey.getMessage());
        ForgetResult restored = forget(first.id(), ForgetAction.RESTORE);

        assertEquals("pool-restored", restored.memory().key());
        assertEquals("key 'pool' now belongs to " + second.id() + ", restored as 'pool-restored'", restored.note());
        assertEquals(first.toBuilder().key("pool-restored").build(), f.store.get(first.id()).orElseThrow());
        assertEquals(second, f.store.getByKey("default", "pool").orElseThrow(), "the new owner is untouched");
    }

    /** Unreachable through the engine alone (the later deletion expires later), but a store may lose a tombstone. */
    @Test
    void aLinkWhoseOtherEndIsGoneForGoodIsNotRestoredAndTheNoteSaysSo() {
        f.remember("a", "Alpha", MemoryType.FACT, List.of("x"));
        Memory b = f.remember("b", "Beta", MemoryType.FACT, List.of("x")).memory();
        f.remember("c", "Gamma", MemoryType.FACT, List.of("x"));
        f.engine.link(new LinkCommand("a", "b", EdgeType.RELATED, null, false));
        f.engine.link(new LinkCommand("c", "a", EdgeType.DEPENDS_ON, null, false));
        forget("a", ForgetAction.HARD);
        forget("b", ForgetAction.HARD);
        f.store.write(tx -> tx.removeTombstone(b.id()));
        ForgetResult restored = forget("a", ForgetAction.RESTORE);
        assertEquals("1 link was not restored: the memory at the other end is gone", restored.note());
        Memory a = restored.memory();
        assertEquals(List.of(f.store.getByKey("default", "c").orElseThrow().id()),
                f.store.edges(a.id()).stream().map(e -> e.other(a.id())).toList());
    }

    @Test
    void twoLinkedMemoriesDeletedAndRestoredInAnyOrderGetTheirLinkBack() {
        f.remember("a", "Alpha", MemoryType.FACT, List.of("x"));
        f.remember("b", "Beta", MemoryType.FACT, List.of("x"));
        f.engine.link(new LinkCommand("a", "b", EdgeType.RELATED, null, false));
        List<Edge> link = f.store.edges(f.store.getByKey("default", "a").orElseThrow().id());
        forget("a", ForgetAction.HARD);
        forget("b", ForgetAction.HARD); // b's tombstone has no edge: it went with a
        ForgetResult a = forget("a", ForgetAction.RESTORE);
        assertEquals("1 link comes back when the deleted memory at the other end is restored", a.note());
        assertEquals(List.of(), f.store.edges(a.memory().id()));
        ForgetResult b = forget("b", ForgetAction.RESTORE);
        assertEquals("", b.note());
        assertEquals(link, f.store.edges(a.memory().id()));
    }

    @Test
    void tombstonesOlderThanTheWindowArePurgedByTheNextHardForget() {
        Memory a = f.remember("a", "Alpha", MemoryType.FACT, List.of("x")).memory();
        Memory b = f.remember("b", "Beta", MemoryType.FACT, List.of("x")).memory();
        forget("a", ForgetAction.HARD);
        f.clock.advance(Engine.RESTORE_WINDOW.plusSeconds(1));
        assertTrue(f.store.write(tx -> tx.tombstone(a.id())).isPresent(), "expired, not yet purged");
        forget("b", ForgetAction.HARD);
        assertEquals(Optional.empty(), f.store.write(tx -> tx.tombstone(a.id())), "purged: nothing of it is left");
        assertTrue(f.store.write(tx -> tx.tombstone(b.id())).isPresent());
    }

    /** Purge erases at once: a live memory with no tombstone left, and a hard-deleted one's tombstone. */
    @Test
    void purgeErasesAtOnceWithNoUndo() {
        f.remember("leaked", "The staging password is hunter2", MemoryType.FACT, List.of());
        f.remember("other", "Deploys go out on Tuesdays", MemoryType.FACT, List.of());
        f.engine.link(new LinkCommand("leaked", "other", EdgeType.RELATED, null, false));
        Memory leaked = f.store.getByKey("default", "leaked").orElseThrow();
        ForgetResult purged = forget("leaked", ForgetAction.PURGE);
        assertEquals(ForgetAction.PURGE, purged.action());
        assertEquals(Optional.empty(), f.store.get(leaked.id()));
        assertEquals(List.of(), f.store.edges(f.store.getByKey("default", "other").orElseThrow().id()));
        assertThrows(NotFoundException.class, () -> forget(leaked.id(), ForgetAction.RESTORE), "no tombstone to restore");

        f.remember("leaked-again", "The prod token is abc123", MemoryType.FACT, List.of());
        Memory again = f.store.getByKey("default", "leaked-again").orElseThrow();
        forget("leaked-again", ForgetAction.HARD);
        f.store.write(tx -> {
            assertTrue(tx.tombstone(again.id()).isPresent());
            return null;
        });
        ForgetResult erased = forget(again.id(), ForgetAction.PURGE);
        assertTrue(erased.note().contains("erased a hard-deleted memory"), erased.note());
        f.store.write(tx -> {
            assertEquals(Optional.empty(), tx.tombstone(again.id()));
            return null;
        });
        assertThrows(NotFoundException.class, () -> forget(again.id(), ForgetAction.RESTORE));
        assertThrows(NotFoundException.class, () -> forget("never-was", ForgetAction.PURGE));
    }

    /** A key shared by a live memory and a deleted one is refused: erasing one could leave the other's text restorable. */
    @Test
    void purgeByAKeyThatNamesALiveAndADeletedMemoryIsRefusedWithBothIds() {
        f.remember("k", "The secret is hunter2", MemoryType.FACT, List.of());
        Memory secret = f.store.getByKey("default", "k").orElseThrow();
        forget("k", ForgetAction.HARD);
        f.remember("k", "The password lives in the vault", MemoryType.FACT, List.of());
        Memory fixed = f.store.getByKey("default", "k").orElseThrow();
        ConflictException e = assertThrows(ConflictException.class, () -> forget("k", ForgetAction.PURGE));
        assertTrue(e.getMessage().contains(secret.id()) && e.getMessage().contains(fixed.id()), e.getMessage());
        assertTrue(f.store.get(fixed.id()).isPresent(), "a refused purge erases nothing");
        f.store.write(tx -> {
            assertTrue(tx.tombstone(secret.id()).isPresent(), "a refused purge erases nothing");
            return null;
        });
        forget(secret.id(), ForgetAction.PURGE);
        assertThrows(NotFoundException.class, () -> forget(secret.id(), ForgetAction.RESTORE));
        assertTrue(f.store.get(fixed.id()).isPresent());

        // two deletions under one key, no live memory: purge by key erases both
        forget("k", ForgetAction.HARD);
        f.remember("k", "Third text", MemoryType.FACT, List.of());
        forget("k", ForgetAction.HARD);
        ForgetResult both = forget("k", ForgetAction.PURGE);
        assertTrue(both.note().startsWith("erased 2 hard-deleted memories"), both.note());
        assertThrows(NotFoundException.class, () -> forget("k", ForgetAction.RESTORE));
    }
}
