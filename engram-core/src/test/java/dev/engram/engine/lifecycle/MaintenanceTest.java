package dev.engram.engine.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.Engine;
import dev.engram.engine.ForgetAction;
import dev.engram.engine.ForgetCommand;
import dev.engram.error.ConflictException;
import dev.engram.error.NotFoundException;
import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryType;
import dev.engram.memory.Tier;
import dev.engram.rank.NumericImportance;
import dev.engram.rank.TierPolicy;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import dev.engram.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The lifecycle cycle on the in-memory store with a hand-moved clock. */
class MaintenanceTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final LifecyclePolicy MEMENTO = LifecyclePolicy.MEMENTO;
    private final MutableClock clock = new MutableClock(T0);
    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final InMemorySearchIndex index = new InMemorySearchIndex(store);
    private final Maintenance maintenance = new Maintenance(store, index, null, clock);
    private int next;

    private Memory.Builder memory(MemoryType type, double importance) {
        String suffix = Integer.toString(next++, 32).replace('0', 'z').replace('1', 'y').replace('8', 'x').replace('9', 'w');
        String id = "m_" + "aaaaaaaaaa".substring(suffix.length()) + suffix;
        id = id.replaceAll("[^a-z2-7_]", "b");
        return Memory.builder().id(id).key("k-" + next).zone("work").type(type).content("content " + next)
                .importance(NumericImportance.level(importance)).relevance(NumericImportance.toRelevance(importance))
                .createdAt(clock.instant()).updatedAt(clock.instant());
    }

    private Memory insert(Memory.Builder b) {
        Memory m = b.build();
        store.write(tx -> {
            tx.insert(m);
            return null;
        });
        return m;
    }

    private Memory get(Memory m) {
        return store.get(m.id()).orElseThrow();
    }

    private double stored(Memory m) {
        return NumericImportance.of(get(m));
    }

    private void days(int n) {
        clock.advance(Duration.ofDays(n));
    }

    private MaintenanceReport run() {
        return maintenance.run(MEMENTO, null, false);
    }

    private static StepReport step(MaintenanceReport r, String name) {
        return r.steps().stream().filter(s -> s.step().equals(name)).findFirst().orElseThrow();
    }

    // --- decay -------------------------------------------------------------------------------------------

    @Test
    void decayIsWrittenBackWithEachTypesHalfLife() {
        Memory procedure = insert(memory(MemoryType.PROCEDURE, 0.7));
        Memory fact = insert(memory(MemoryType.FACT, 0.6));
        Memory decision = insert(memory(MemoryType.DECISION, 0.7));
        Memory relation = insert(memory(MemoryType.RELATION, 0.6));
        days(30);
        run();
        assertEquals(0.35, stored(procedure), 0.001, "procedure: half-life 30 days");
        assertEquals(0.6 * Math.pow(2, -0.5), stored(fact), 0.001, "fact: half-life 60 days");
        assertEquals(0.7 * Math.pow(2, -1 / 3.0), stored(decision), 0.001, "decision: half-life 90 days");
        assertEquals(0.6 * Math.pow(2, -1 / 3.0), stored(relation), 0.001, "relation: half-life 90 days");
        assertEquals(clock.instant(), get(procedure).lastDecayAt());
        assertEquals(procedure.updatedAt(), get(procedure).updatedAt(), "fading is not an edit");
    }

    @Test
    void anchorsPermanentAndExemptTypesNeverDecayAndTheFloorHolds() {
        Memory error = insert(memory(MemoryType.ERROR, 0.6));
        Memory preference = insert(memory(MemoryType.PREFERENCE, 0.6));
        Memory anchor = insert(memory(MemoryType.FACT, 0.6).pinPriority(1));
        Memory permanent = insert(memory(MemoryType.FACT, 0.85));
        Memory faint = insert(memory(MemoryType.FACT, 0.3));
        days(2000);
        MaintenanceReport r = run();
        assertEquals(0.6, stored(error), 1e-9);
        assertEquals(0.6, stored(preference), 1e-9);
        assertEquals(0.6, stored(anchor), 1e-9);
        assertEquals(0.85, stored(permanent), 1e-9, "importance >= 0.8 is the permanent tier");
        assertEquals(0.05, stored(faint), 1e-9, "never below the floor");
        assertEquals(1, step(r, "decay").changed());
        days(100);
        assertEquals(0, step(run(), "decay").changed(), "a memory at the floor is left where it is");
    }

    @Test
    void noDoubleDecayAcrossCyclesAndReadsContinueFromTheLastOne() {
        Memory procedure = insert(memory(MemoryType.PROCEDURE, 0.7));
        Memory twin = insert(memory(MemoryType.PROCEDURE, 0.7));
        days(15);
        run();
        assertEquals(0.7 * Math.pow(2, -0.5), stored(procedure), 0.001);
        days(15);
        assertEquals(0.35, MEMENTO.importance(get(procedure), clock.instant()), 0.002,
                "read between cycles: fades only the days since the write-back");
        run();
        assertEquals(0.35, stored(procedure), 0.002, "two cycles of 15 days fade as one of 30");
        run();
        assertEquals(0.35, stored(procedure), 0.002, "a second cycle at the same instant changes nothing");
        assertEquals(MEMENTO.importance(get(twin), clock.instant()), MEMENTO.importance(get(procedure), clock.instant()), 0.002);
    }

    @Test
    void readsSlowTheFading() {
        Memory used = insert(memory(MemoryType.PROCEDURE, 0.7).accessCount(10).lastAccessedAt(T0));
        days(30);
        run();
        assertEquals(0.7 * Math.pow(2, -0.5), stored(used), 0.001, "ten reads double the half-life");
    }

    @Test
    void theDefaultPolicyWritesNoDecay() {
        Memory fact = insert(memory(MemoryType.FACT, 0.6));
        days(400);
        maintenance.run(LifecyclePolicy.DEFAULT, null, false);
        assertEquals(0.6, stored(fact), 1e-9);
        assertEquals(null, get(fact).lastDecayAt());
    }

    // --- tiers -------------------------------------------------------------------------------------------

    @Test
    void initialTierFollowsMementosPlacement() {
        assertEquals(Tier.PERMANENT, MEMENTO.initialTier(memory(MemoryType.PREFERENCE, 0.3).build()));
        assertEquals(Tier.PERMANENT, MEMENTO.initialTier(memory(MemoryType.FACT, 0.8).build()));
        assertEquals(Tier.PERMANENT, MEMENTO.initialTier(memory(MemoryType.FACT, 0.3).pinPriority(1).build()));
        assertEquals(Tier.HOT, MEMENTO.initialTier(memory(MemoryType.ERROR, 0.5).build()));
        assertEquals(Tier.HOT, MEMENTO.initialTier(memory(MemoryType.PROCEDURE, 0.7).build()));
        assertEquals(Tier.WARM, MEMENTO.initialTier(memory(MemoryType.FACT, 0.3).tags(List.of("episode")).build()));
        assertEquals(Tier.WARM, MEMENTO.initialTier(memory(MemoryType.FACT, 0.5).build()));
        assertEquals(Tier.COLD, MEMENTO.initialTier(memory(MemoryType.FACT, 0.4).build()));
        assertEquals(Tier.SHORT, MEMENTO.initialTier(memory(MemoryType.FACT, 0.9).expiresAt(T0.plus(Duration.ofDays(1))).build()));
    }

    @Test
    void tiersCoolWhenUnusedAndARecallBringsAMemoryBackToHot() {
        Memory fact = insert(memory(MemoryType.FACT, 0.6));
        Memory error = insert(memory(MemoryType.ERROR, 0.6));
        assertEquals(Tier.WARM, MEMENTO.tier(get(fact), clock.instant()));
        days(30);
        assertEquals(Tier.COLD, MEMENTO.tier(get(fact), clock.instant()), "warm goes cold after 30 days without a read");
        assertEquals(Tier.COLD, MEMENTO.tier(get(error), clock.instant()), "an error not read for 30 days leaves hot");
        store.recordAccess(List.of(fact.id()), clock.instant());
        assertEquals(Tier.HOT, MEMENTO.tier(get(fact), clock.instant()), "recalled: hot again");
        days(7);
        assertEquals(Tier.WARM, MEMENTO.tier(get(fact), clock.instant()), "a week after the read, warm again");
        Memory faded = insert(memory(MemoryType.FACT, 0.35));
        assertEquals(Tier.COLD, MEMENTO.tier(get(faded), clock.instant()), "importance under 0.5: cold");
    }

    @Test
    void permanentGoesOnParoleWhenLowAndUnreadForHalfAYear() {
        Memory preference = insert(memory(MemoryType.PREFERENCE, 0.4));
        Memory anchored = insert(memory(MemoryType.PREFERENCE, 0.4).pinPriority(2));
        days(179);
        assertEquals(Tier.PERMANENT, MEMENTO.tier(get(preference), clock.instant()));
        days(1);
        assertEquals(Tier.COLD, MEMENTO.tier(get(preference), clock.instant()), "parole: not an anchor, under 0.5, 180 days unread");
        assertEquals(Tier.PERMANENT, MEMENTO.tier(get(anchored), clock.instant()), "an anchor never goes on parole");
    }

    @Test
    void theDefaultPolicyIsTheNativeThreeTierView() {
        Memory m = insert(memory(MemoryType.FACT, 0.5));
        assertEquals(Tier.HOT, TierPolicy.tierOf(get(m), clock.instant()));
        days(7);
        assertEquals(Tier.WARM, LifecyclePolicy.DEFAULT.tier(get(m), clock.instant()));
        days(53);
        assertEquals(Tier.COLD, TierPolicy.tierOf(get(m), clock.instant()));
        assertEquals(Tier.HOT, TierPolicy.tierOf(get(m).toBuilder().pinPriority(1).build(), clock.instant()));
    }

    // --- gc ----------------------------------------------------------------------------------------------

    @Test
    void gcArchivesAnOrphanButNotALinkedOneNorWithinGraceNorExempt() {
        Memory orphan = insert(memory(MemoryType.FACT, 0.15));
        Memory linked = insert(memory(MemoryType.FACT, 0.15));
        Memory other = insert(memory(MemoryType.FACT, 0.6));
        store.write(tx -> {
            tx.addEdge(new Edge(linked.id(), other.id(), EdgeType.RELATED, T0));
            return null;
        });
        Memory anchor = insert(memory(MemoryType.FACT, 0.02).pinPriority(1));
        Memory preference = insert(memory(MemoryType.PREFERENCE, 0.02));
        days(31);
        Memory young = insert(memory(MemoryType.FACT, 0.02).createdAt(clock.instant().minus(Duration.ofDays(6))));
        MaintenanceReport r = run();
        assertEquals(MemoryStatus.ARCHIVED, get(orphan).status(), r.toString());
        assertEquals(MemoryStatus.ACTIVE, get(linked).status(), "linked: no orphan");
        assertEquals(MemoryStatus.ACTIVE, get(anchor).status(), "anchors are never collected");
        assertEquals(MemoryStatus.ACTIVE, get(preference).status(), "the permanent tier is never collected");
        assertEquals(MemoryStatus.ACTIVE, get(young).status(), "7 days' grace");
        assertEquals(List.of(orphan.id()), step(r, "gc").findings().stream().flatMap(f -> f.memoryIds().stream()).toList());
    }

    @Test
    void gcCollectsLowUtilityFadedAndResolvedErrorsAndExpiredWorkingMemory() {
        Memory lowUtility = insert(memory(MemoryType.DECISION, 0.3));
        Memory resolved = insert(memory(MemoryType.ERROR, 0.25).content("[resolved] Cause: X → Resolution: Y"));
        Memory unresolved = insert(memory(MemoryType.ERROR, 0.25).content("Cause: X"));
        Memory session = insert(memory(MemoryType.FACT, 0.9).expiresAt(T0.plus(Duration.ofDays(1))));
        days(30);
        run();
        assertEquals(MemoryStatus.ARCHIVED, get(resolved).status(), "a resolved error after 30 days under 0.3");
        assertEquals(MemoryStatus.ACTIVE, get(unresolved).status());
        assertEquals(MemoryStatus.ARCHIVED, get(session).status(), "expired more than 7 days ago");
        assertEquals(MemoryStatus.ACTIVE, get(lowUtility).status(), "not idle 60 days yet");
        days(30);
        run();
        assertEquals(MemoryStatus.ARCHIVED, get(lowUtility).status(), "utility under 0.15 and idle 60 days");
    }

    @Test
    void gcIsBoundedPerCycle() {
        List<Memory> orphans = new ArrayList<>();
        for (int i = 0; i < 60; i++) orphans.add(insert(memory(MemoryType.FACT, 0.1)));
        days(31);
        MaintenanceReport first = run();
        assertEquals(50, step(first, "gc").changed());
        assertEquals(50, orphans.stream().filter(m -> get(m).status() == MemoryStatus.ARCHIVED).count());
        assertEquals(10, step(run(), "gc").changed(), "the rest on the next cycle");
    }

    @Test
    void gcPurgesWhatItArchivedLaterButNeverAUsersArchive() {
        Engine engine = new Engine(store, index, clock);
        Memory collected = insert(memory(MemoryType.FACT, 0.1));
        Memory restoredThenArchived = insert(memory(MemoryType.FACT, 0.1));
        Memory users = insert(memory(MemoryType.FACT, 0.6));
        days(31);
        run();
        assertEquals(MemoryStatus.ARCHIVED, get(collected).status());
        assertEquals(MemoryStatus.ARCHIVED, get(restoredThenArchived).status());
        engine.forget(new ForgetCommand(users.id(), null, ForgetAction.SOFT));
        clock.advance(Duration.ofHours(1));
        engine.forget(new ForgetCommand(restoredThenArchived.id(), null, ForgetAction.RESTORE));
        engine.forget(new ForgetCommand(restoredThenArchived.id(), null, ForgetAction.SOFT));
        days(29);
        assertEquals(0, step(run(), "gc").findings().stream().filter(f -> f.kind().equals("purged")).count(),
                "not before 30 days archived");
        days(1);
        MaintenanceReport r = run();
        assertEquals(List.of(collected.id()), step(r, "gc").findings().stream().filter(f -> f.kind().equals("purged"))
                .flatMap(f -> f.memoryIds().stream()).toList());
        assertTrue(store.get(collected.id()).isEmpty(), "purged");
        assertEquals(MemoryStatus.ARCHIVED, get(users).status(), "a user's archive is never purged by gc");
        assertEquals(MemoryStatus.ARCHIVED, get(restoredThenArchived).status(), "archived again by its user: theirs now");
        engine.forget(new ForgetCommand(collected.id(), null, ForgetAction.RESTORE));
        assertEquals(MemoryStatus.ARCHIVED, get(collected).status(), "a purge is restorable from its tombstone");
    }

    // --- anchor and feedback -----------------------------------------------------------------------------

    @Test
    void autoAnchorNeedsTenReadsAndImportance08() {
        Memory anchored = insert(memory(MemoryType.ERROR, 0.85).accessCount(10).lastAccessedAt(T0));
        Memory fewReads = insert(memory(MemoryType.ERROR, 0.85).accessCount(9).lastAccessedAt(T0));
        Memory lowImportance = insert(memory(MemoryType.ERROR, 0.7).accessCount(12).lastAccessedAt(T0));
        MaintenanceReport r = run();
        assertTrue(get(anchored).pinned());
        assertFalse(get(fewReads).pinned());
        assertFalse(get(lowImportance).pinned());
        assertEquals(1, step(r, "anchor").changed());
        assertEquals(0, step(maintenance.run(LifecyclePolicy.DEFAULT, null, false), "anchor").changed(),
                "the default policy never pins on its own");
    }

    @Test
    void feedbackAdaptsImportanceByMementosStepsWithinTheClamp() {
        Memory a = insert(memory(MemoryType.FACT, 0.5));
        Memory top = insert(memory(MemoryType.FACT, 1.0));
        Memory bottom = insert(memory(MemoryType.FACT, 0.05));
        FeedbackRules rules = MEMENTO.feedback();
        assertEquals(0.525, maintenance.adaptImportance("work", List.of(a.id()), true, true, rules).get(0).after(), 1e-9);
        assertEquals(0.512, maintenance.adaptImportance("work", List.of(a.id()), true, false, rules).get(0).after(), 1e-9);
        assertEquals(0.486, maintenance.adaptImportance("work", List.of(a.id()), false, true, rules).get(0).after(), 1e-9);
        assertEquals(0.486, stored(a), 1e-9);
        assertEquals(1.0, maintenance.adaptImportance("work", List.of(top.id()), true, true, rules).get(0).after(), 1e-9);
        assertEquals(0.05, maintenance.adaptImportance("work", List.of(bottom.id()), false, false, rules).get(0).after(), 1e-9);
        assertThrows(NotFoundException.class,
                () -> maintenance.adaptImportance("work", List.of(a.id(), "m_zzzzzzzzzz"), true, true, rules));
        assertEquals(0.486, stored(a), 1e-9, "an unknown id changes nothing");
        assertThrows(NotFoundException.class, () -> maintenance.adaptImportance("other", List.of(a.id()), true, true, rules),
                "another zone's memory is not found");
    }

    @Test
    void aSessionsFeedbackAdaptsEachFragmentOncePerWindowAndAtMost20() {
        FeedbackRules rules = MEMENTO.feedback();
        Memory a = insert(memory(MemoryType.FACT, 0.5));
        Maintenance.Rating first = maintenance.rate("work", "s1", List.of(a.id()), true, true, rules);
        assertEquals(0.525, first.adapted().get(0).after(), 1e-9);
        Maintenance.Rating again = maintenance.rate("work", "s1", List.of(a.id()), true, true, rules);
        assertEquals(List.of(), again.adapted(), "once per window");
        assertEquals(a.id(), again.skipped().get(0).id());
        assertTrue(again.skipped().get(0).reason().contains("already"), again.toString());
        assertEquals(0.525, stored(a), 1e-9);
        assertEquals(0.551, maintenance.rate("work", "s2", List.of(a.id()), true, true, rules).adapted().get(0).after(), 1e-9,
                "another session has its own window");

        List<String> many = new ArrayList<>();
        for (int i = 0; i < 21; i++) many.add(insert(memory(MemoryType.FACT, 0.5)).id());
        Maintenance.Rating capped = maintenance.rate("work", "s1", many, false, true, rules);
        assertEquals(19, capped.adapted().size(), "20 a session: a counts already");
        assertEquals(many.subList(19, 21), capped.skipped().stream().map(Maintenance.Skipped::id).toList());
        assertTrue(capped.skipped().get(0).reason().contains("20 fragments"), capped.skipped().get(0).reason());
        assertThrows(NotFoundException.class, () -> maintenance.rate("work", "s3", List.of(a.id(), "m_zzzzzzzzzz"), true, true, rules));
        assertEquals(0.551, stored(a), 1e-9, "an unknown id changes nothing");

        clock.advance(Duration.ofHours(24));
        Maintenance.Rating next = maintenance.rate("work", "s1", List.of(a.id(), many.get(20)), true, true, rules);
        assertEquals(2, next.adapted().size(), "after 24 hours a new window opens: " + next);
        assertEquals(0.579, stored(a), 1e-9);
    }

    @Test
    void feedbackIsLoggedWithItsRatingInOneWriteAndSurvivesANewEngine() {
        FeedbackRules rules = MEMENTO.feedback();
        Memory a = insert(memory(MemoryType.FACT, 0.5));
        Maintenance.Feedback f = maintenance.feedback("work", "claude/s1",
                ToolFeedback.of("recall", true, false, "return errors first", "debugging redis", null), List.of(a.id()), rules);
        assertEquals(1, f.logged().id());
        assertEquals("voluntary", f.logged().trigger());
        assertEquals(List.of(a.id()), f.logged().memoryIds());
        assertEquals(0.488, f.rating().adapted().get(0).after(), 1e-9);
        maintenance.feedback("work", "claude/s2", ToolFeedback.of("context", false, false, null, null, "sampled"), List.of(), rules);
        assertThrows(NotFoundException.class, () -> maintenance.feedback("work", "claude/s2",
                ToolFeedback.of("recall", true, true, null, null, null), List.of(a.id(), "m_zzzzzzzzzz"), rules));
        assertEquals(0.488, stored(a), 1e-9, "an unknown id changes nothing");

        // another process on the same store reads the same log
        Maintenance other = new Maintenance(store, index, null, clock);
        FeedbackLog.Entries log = other.feedbackLog("work");
        assertEquals(2, log.total(), "the refused rating was not logged");
        assertEquals(List.of("recall", "context"), log.kept().stream().map(ToolFeedback::tool).toList());
        assertEquals("return errors first", log.kept().get(0).suggestion());
        assertEquals("claude/s1", log.kept().get(0).session());
        FeedbackLog.Summary sum = other.feedbackSummary("work");
        assertEquals(2, sum.total());
        assertEquals(0.5, sum.relevantRate());
        assertEquals(0.0, sum.sufficientRate());
        assertEquals(new FeedbackLog.ToolStats(1, 0, 0, 1, 0), sum.byTool().get("context"));
        assertEquals(List.of("return errors first"), sum.recentSuggestions().stream().map(ToolFeedback::suggestion).toList());
        assertEquals(new FeedbackLog.Evaluation(0.5, 0.0, 2), sum.evaluation());
        assertEquals(0, other.feedbackLog("elsewhere").total(), "a log per zone");

        days(31);
        assertEquals(new FeedbackLog.Evaluation(null, null, 0), other.feedbackSummary("work").evaluation(),
                "the evaluation reads the last 30 days");
    }

    @Test
    void theFeedbackLogKeepsTheNewest200AndCountsAll() {
        FeedbackRules rules = MEMENTO.feedback();
        for (int i = 0; i < 205; i++) {
            maintenance.feedback("work", "s", ToolFeedback.of("recall", i % 2 == 0, true, "tab\tand\nline " + i, null, null),
                    List.of(), rules);
        }
        FeedbackLog.Entries log = maintenance.feedbackLog("work");
        assertEquals(205, log.total());
        assertEquals(FeedbackLog.KEEP, log.kept().size());
        assertEquals(6, log.kept().get(0).id(), "the oldest five were dropped");
        assertEquals("tab\tand\nline 204", log.kept().get(199).suggestion());
        assertTrue(store.mark(FeedbackLog.MARK + "work").orElseThrow().length() < 40_000, "bounded");
    }

    @Test
    void aBadRatingIsRefusedNamingTheField() {
        assertTrue(assertThrows(dev.engram.error.InvalidArgumentException.class,
                () -> ToolFeedback.of(" ", true, true, null, null, null)).getMessage().startsWith("tool_name is required"));
        assertTrue(assertThrows(dev.engram.error.InvalidArgumentException.class,
                () -> ToolFeedback.of("recall", true, true, "x".repeat(101), null, null)).getMessage()
                .startsWith("suggestion is 101 characters; send at most 100"));
        assertTrue(assertThrows(dev.engram.error.InvalidArgumentException.class,
                () -> ToolFeedback.of("recall", true, true, null, null, "often")).getMessage()
                .contains("is not a trigger; send voluntary or sampled"));
    }

    // --- hubs, untyped and reflection noise --------------------------------------------------------------

    @Test
    void aFragmentLinkedToFiveOthersBecomesAPermanentHubAndStopsFading() {
        Memory hub = insert(memory(MemoryType.FACT, 0.45));
        Memory four = insert(memory(MemoryType.FACT, 0.5));
        List<Memory> others = new ArrayList<>();
        for (int i = 0; i < 5; i++) others.add(insert(memory(MemoryType.FACT, 0.5)));
        store.write(tx -> {
            for (int i = 0; i < 5; i++) {
                // both directions and types count, each neighbour once
                tx.addEdge(i % 2 == 0 ? new Edge(hub.id(), others.get(i).id(), EdgeType.RELATED, T0)
                        : new Edge(others.get(i).id(), hub.id(), EdgeType.CAUSED_BY, T0));
                if (i < 4) tx.addEdge(new Edge(four.id(), others.get(i).id(), EdgeType.RELATED, T0));
            }
            tx.addEdge(new Edge(four.id(), others.get(0).id(), EdgeType.DEPENDS_ON, T0)); // a second edge to the same one
            return null;
        });
        assertEquals(Tier.COLD, MEMENTO.tier(get(hub), T0));
        days(10);
        MaintenanceReport r = run();
        assertEquals(List.of(hub.id()), step(r, "tiers").findings().stream().flatMap(f -> f.memoryIds().stream()).toList());
        assertTrue(get(hub).tags().contains(TierStep.HUB_TAG));
        assertEquals(Tier.PERMANENT, MEMENTO.tier(get(hub), clock.instant()));
        assertEquals(0.45, stored(hub), 1e-9, "the permanent tier does not fade");
        assertTrue(stored(four) < 0.5, "four links: no hub, it fades");
        assertEquals(get(hub).updatedAt(), hub.updatedAt(), "a promotion is no edit");
        assertEquals(0, step(run(), "tiers").changed(), "promoted once");
        assertFalse(Maintenance.defaultSteps(LifecyclePolicy.DEFAULT).stream().anyMatch(st -> st.name().equals("tiers")),
                "the native tiers have no hub rule");
        days(181);
        assertEquals(Tier.COLD, MEMENTO.tier(get(hub), clock.instant()), "a hub that is no anchor is on parole");
    }

    @Test
    void gcCollectsAnUnimportantMemoryOfATypeMementoHasNoNameFor() {
        Memory warning = insert(memory(MemoryType.WARNING, 0.15));
        Memory important = insert(memory(MemoryType.PATTERN, 0.6));
        Memory fact = insert(memory(MemoryType.FACT, 0.15).accessCount(3).lastAccessedAt(T0));
        days(6);
        run();
        assertEquals(MemoryStatus.ACTIVE, get(warning).status(), "within the 7 days' grace");
        days(2);
        MaintenanceReport r = run();
        assertEquals(MemoryStatus.ARCHIVED, get(warning).status(), r.toString());
        assertTrue(step(r, "gc").findings().get(0).detail().contains("type warning"), r.toString());
        assertEquals(MemoryStatus.ACTIVE, get(important).status(), "importance 0.2 or more stays");
        assertEquals(MemoryStatus.ACTIVE, get(fact).status(), "a Memento type is not untyped");
        Memory nativeWarning = insert(memory(MemoryType.WARNING, 0.1).createdAt(T0));
        maintenance.run(LifecyclePolicy.DEFAULT, null, false);
        assertEquals(MemoryStatus.ACTIVE, get(nativeWarning).status(), "the default policy collects expired memories only");
    }

    @Test
    void gcKeepsTheFiveMostImportantReflectionsOfEachTypeAndCollectsOldUnimportantOnes() {
        String tag = MEMENTO.gc().reflect().tag();
        List<Memory> facts = new ArrayList<>();
        for (int i = 0; i < 8; i++) facts.add(insert(memory(MemoryType.FACT, 0.2 + i * 0.001).tags(List.of(tag))));
        List<Memory> decisions = new ArrayList<>();
        for (int i = 0; i < 6; i++) decisions.add(insert(memory(MemoryType.DECISION, 0.25).tags(List.of(tag)).accessCount(20)));
        Memory important = insert(memory(MemoryType.PROCEDURE, 0.5).tags(List.of(tag)));
        Memory untagged = insert(memory(MemoryType.FACT, 0.2).accessCount(20));
        // reads keep the other rules (utility, orphan) away from these, so only the reflection rule can take them
        for (Memory m : facts) store.write(tx -> { tx.update(tx.get(m.id()).orElseThrow().toBuilder().accessCount(20).build()); return null; });
        days(29);
        assertEquals(0, step(run(), "gc").changed(), "not 30 days old yet");
        days(1);
        MaintenanceReport r = run();
        List<String> collected = step(r, "gc").findings().stream().flatMap(f -> f.memoryIds().stream()).toList();
        // facts: the five most important stay, the three least go; decisions: six equal ones, five stay, one goes
        assertEquals(4, collected.size(), r.toString());
        assertTrue(collected.containsAll(facts.subList(0, 3).stream().map(Memory::id).toList()), collected.toString());
        assertEquals(1, decisions.stream().filter(m -> collected.contains(m.id())).count());
        assertEquals(MemoryStatus.ACTIVE, get(important).status(), "the only procedure is among its type's five");
        assertEquals(MemoryStatus.ACTIVE, get(untagged).status(), "not a reflection");
        assertTrue(step(r, "gc").findings().get(0).detail().contains("session reflection"), r.toString());
    }

    // --- dry run and lease -------------------------------------------------------------------------------

    private Map<String, String> snapshot() {
        Map<String, String> out = new TreeMap<>();
        store.forEach(null, m -> out.put(m.id(), m.toString()));
        for (String mark : List.of(MaintenanceLease.MARK, MaintenanceLease.LAST_RUN)) out.put(mark, store.mark(mark).orElse(""));
        out.put("head", Long.toString(store.headSeq()));
        return out;
    }

    @Test
    void aDryRunWritesNothingAndReportsWhatTheRunThenDoes() {
        insert(memory(MemoryType.PROCEDURE, 0.7));
        insert(memory(MemoryType.FACT, 0.1));
        insert(memory(MemoryType.ERROR, 0.9).accessCount(10).lastAccessedAt(T0));
        days(31);
        Map<String, String> before = snapshot();
        MaintenanceReport dry = maintenance.run(MEMENTO, null, true);
        assertEquals(before, snapshot(), "a dry run writes nothing");
        assertTrue(dry.dryRun());
        assertEquals(4, dry.changed(), "the procedure and the orphan fade, the orphan is archived, the error anchored");
        MaintenanceReport real = run();
        assertEquals(dry.steps().stream().map(s -> s.step() + s.changed() + s.findings()).toList(),
                real.steps().stream().map(s -> s.step() + s.changed() + s.findings()).toList());
    }

    @Test
    void onlyOneProcessRunsACycleWhileTheLeaseIsHeld() {
        Maintenance other = new Maintenance(store, index, null, clock);
        insert(memory(MemoryType.PROCEDURE, 0.7));
        assertEquals(Optional.empty(), MaintenanceLease.acquire(store, other.owner(), clock.instant(), null));
        ConflictException busy = assertThrows(ConflictException.class, this::run);
        assertTrue(busy.getMessage().contains(other.owner()), busy.getMessage());
        assertEquals(Optional.empty(), maintenance.runIfDue(MEMENTO, Duration.ofHours(6)), "the scheduler skips too");
        assertTrue(maintenance.run(MEMENTO, null, true).dryRun(), "a dry run needs no lease");
        clock.advance(MaintenanceLease.DURATION);
        assertTrue(maintenance.runIfDue(MEMENTO, Duration.ofHours(6)).isPresent(), "an abandoned lease expires");
        assertEquals(Optional.empty(), other.runIfDue(MEMENTO, Duration.ofHours(6)), "not due: a cycle ran within the interval");
        clock.advance(Duration.ofHours(6));
        assertTrue(other.runIfDue(MEMENTO, Duration.ofHours(6)).isPresent(), "due again after the interval, in either process");
        assertTrue(run().steps().size() >= 3, "a released lease lets the next run in");
    }

    /** A cycle the schedule ran is counted (for /metrics), with when it ran. */
    @Test
    void theScheduleCountsTheCyclesItRan() throws Exception {
        long before = MaintenanceScheduler.runs();
        try (MaintenanceScheduler s = MaintenanceScheduler.start(maintenance, MEMENTO, Duration.ofMinutes(1), Duration.ZERO)) {
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (MaintenanceScheduler.runs() == before && System.nanoTime() < deadline) Thread.sleep(20);
        }
        assertEquals(before + 1, MaintenanceScheduler.runs(), "the first check finds a cycle due and runs it");
        assertTrue(MaintenanceScheduler.lastRunEpochMillis() > 0);
    }

    @Test
    void theIntervalSettingParses() {
        assertEquals(Optional.of(Duration.ofHours(6)), MaintenanceScheduler.interval("6h", Duration.ofDays(1)));
        assertEquals(Optional.of(Duration.ofMinutes(30)), MaintenanceScheduler.interval("30m", Duration.ofDays(1)));
        assertEquals(Optional.of(Duration.ofDays(2)), MaintenanceScheduler.interval(" 2d ", Duration.ofDays(1)));
        assertEquals(Optional.of(Duration.ofHours(6)), MaintenanceScheduler.interval("PT6H", Duration.ofDays(1)));
        assertEquals(Optional.of(Duration.ofDays(1)), MaintenanceScheduler.interval(null, Duration.ofDays(1)));
        assertEquals(Optional.empty(), MaintenanceScheduler.interval("off", Duration.ofDays(1)));
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> MaintenanceScheduler.interval("soon", Duration.ofDays(1)));
        assertTrue(bad.getMessage().contains("6h, 30m, 1d or off"), bad.getMessage());
        assertThrows(IllegalArgumentException.class, () -> MaintenanceScheduler.interval("1s", Duration.ofDays(1)));
        assertEquals(Duration.ofMinutes(36), MaintenanceScheduler.checkPeriod(Duration.ofHours(6)));
        assertEquals(Duration.ofHours(1), MaintenanceScheduler.checkPeriod(Duration.ofDays(1)));
    }
}
