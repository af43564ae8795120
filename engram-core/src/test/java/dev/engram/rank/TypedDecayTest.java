package dev.engram.rank;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.engram.memory.Importance;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryType;
import dev.engram.memory.Origin;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Memento's typed decay curves, its exemptions and floor, and the numeric importance mapping. */
class TypedDecayTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private final TypedDecay decay = TypedDecay.MEMENTO;

    private static Memory memory(MemoryType type, long reads, Instant lastRead, int pin) {
        return Memory.builder().id("m_aaaaaaaaaa").key("k").zone("default").type(type).content("c").tags(List.of())
                .confidence(1).status(MemoryStatus.ACTIVE).createdAt(T0).updatedAt(T0).origin(Origin.AGENT)
                .accessCount(reads).lastAccessedAt(lastRead).pinPriority(pin).build();
    }

    private double at(MemoryType type, int days) {
        return decay.effective(memory(type, 0, null, 0), 0.8, T0.plus(Duration.ofDays(days)), false);
    }

    @Test
    void halvesPerTypeHalfLife() {
        assertEquals(0.8, at(MemoryType.FACT, 0), 1e-9);
        assertEquals(0.4, at(MemoryType.PROCEDURE, 30), 1e-9);
        assertEquals(0.2, at(MemoryType.PROCEDURE, 60), 1e-9);
        assertEquals(0.4, at(MemoryType.FACT, 60), 1e-9);
        assertEquals(0.4, at(MemoryType.DECISION, 90), 1e-9);
        assertEquals(0.4, at(MemoryType.RELATION, 90), 1e-9);
        assertEquals(0.4, at(MemoryType.WARNING, 60), 1e-9, "other types use the default 60 days");
    }

    @Test
    void errorsPreferencesAnchorsAndPermanentAreExempt() {
        assertEquals(0.8, at(MemoryType.ERROR, 400), 1e-9);
        assertEquals(0.8, at(MemoryType.PREFERENCE, 400), 1e-9);
        Instant later = T0.plus(Duration.ofDays(400));
        assertEquals(0.8, decay.effective(memory(MemoryType.FACT, 0, null, 2), 0.8, later, false), 1e-9);
        assertEquals(0.8, decay.effective(memory(MemoryType.FACT, 0, null, 0), 0.8, later, true), 1e-9);
    }

    @Test
    void neverBelowTheFloorNorRaisedToIt() {
        assertEquals(0.05, at(MemoryType.PROCEDURE, 3650), 1e-9);
        assertEquals(0.02, decay.effective(memory(MemoryType.FACT, 0, null, 0), 0.02, T0.plus(Duration.ofDays(900)), false), 1e-9);
    }

    @Test
    void readingRestartsTheClockAndUseSlowsTheFading() {
        Instant read = T0.plus(Duration.ofDays(100));
        Instant now = read.plus(Duration.ofDays(60));
        assertEquals(0.4, decay.effective(memory(MemoryType.FACT, 0, read, 0), 0.8, now, false), 1e-9);
        // ten reads double the half-life: 60 days of a fact then only take it to 2^-0.5
        assertEquals(Math.round(0.8 * Math.pow(2, -0.5) * 1000) / 1000.0,
                decay.effective(memory(MemoryType.FACT, 10, read, 0), 0.8, now, false), 1e-9);
    }

    @Test
    void afterAWriteBackAReadNoLongerRestartsTheClock() {
        Instant decayed = T0.plus(Duration.ofDays(10));
        Instant read = decayed.plus(Duration.ofDays(50));
        Memory m = memory(MemoryType.FACT, 0, read, 0).toBuilder().lastDecayAt(decayed).build();
        // 60 days since the write-back: a fact's half-life, whatever was read in between
        assertEquals(0.4, decay.effective(m, 0.8, decayed.plus(Duration.ofDays(60)), false), 1e-9);
        assertEquals(decayed, TypedDecay.fadesFrom(m));
    }

    @Test
    void numericImportanceRoundTripsThroughRelevanceAndLevel() {
        assertEquals(1.0, NumericImportance.toRelevance(0.5), 1e-9);
        assertEquals(1.8, NumericImportance.toRelevance(0.9), 1e-9);
        assertEquals(Memory.MIN_RELEVANCE, NumericImportance.toRelevance(0), 1e-9);
        assertEquals(Importance.LOW, NumericImportance.level(0.3));
        assertEquals(Importance.MEDIUM, NumericImportance.level(0.5));
        assertEquals(Importance.HIGH, NumericImportance.level(0.8));
        assertEquals(Importance.CRITICAL, NumericImportance.level(0.95));
        Memory m = memory(MemoryType.FACT, 0, null, 0);
        assertEquals(0.5, NumericImportance.of(m), 1e-9, "a memory nobody weighted is a plain 0.5");
        assertEquals(0.73, NumericImportance.of(m.toBuilder().relevance(NumericImportance.toRelevance(0.73)).build()), 1e-9);
        assertEquals(0.9, NumericImportance.of(m.toBuilder().importance(Importance.CRITICAL).build()), 1e-9);
        assertEquals(1.0, NumericImportance.of(m.toBuilder().relevance(10).build()), 1e-9, "brain-tools' ×10 caps at 1");
    }
}
