package dev.engram.engine.lifecycle;

import dev.engram.crypto.Sha256;
import dev.engram.error.ConflictException;
import dev.engram.error.NotFoundException;
import dev.engram.memory.Memory;
import dev.engram.rank.NumericImportance;
import dev.engram.spi.Embedder;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The maintenance cycle: runs a policy's steps in order over one zone or every zone and reports what each
 * did. A cycle that writes holds the {@link MaintenanceLease}, so when several processes share a store
 * only one runs at a time; a dry run writes nothing (not even the lease) and reports what would change.
 */
public final class Maintenance {
    private final MemoryStore store;
    private final SearchIndex index;
    private final Embedder embedder;
    private final Clock clock;
    /** This process's name on the lease: pid@host plus a random part, so two engines of one JVM differ too. */
    private final String owner;
    /** The model that judges contradiction candidates the deterministic check leaves open; null for none. */
    private volatile ContradictionJudge judge;

    public Maintenance(MemoryStore store, SearchIndex index, Embedder embedder, Clock clock) {
        this.store = store;
        this.index = index;
        this.embedder = embedder;
        this.clock = clock;
        this.owner = ManagementFactory.getRuntimeMXBean().getName() + "/" + UUID.randomUUID().toString().substring(0, 8);
    }

    /**
     * The steps a policy's cycle runs, in order. Auto-anchor first, so what becomes an anchor is exempt
     * from the rest, then the hub promotion where the policy has one; decay before collection, so collection sees
     * the faded importance.
     */
    public static List<MaintenanceStep> defaultSteps(LifecyclePolicy policy) {
        return defaultSteps(policy, null);
    }

    /**
     * The same, with consolidation where the policy promises it (Memento's: merge near-duplicates, compress old
     * same-topic groups, find contradictions, judged by {@code judge} when one is configured). The default policy
     * consolidates nothing on its own: rewriting or archiving what a user stored on a timer is a profile's promise
     * to make (toon's memory_consolidate and {@code engram consolidate --profile memento} ask for it explicitly).
     */
    public static List<MaintenanceStep> defaultSteps(LifecyclePolicy policy, ContradictionJudge judge) {
        List<MaintenanceStep> consolidation = policy.name().equals(LifecyclePolicy.MEMENTO.name())
                ? ConsolidationSteps.of(ConsolidationPolicy.MEMENTO, judge) : List.of();
        List<MaintenanceStep> steps = new ArrayList<>();
        steps.add(new AnchorStep(policy));
        // hubs become permanent before decay and collection, which exempt the permanent tier
        if (policy.tiers() instanceof TierRules.Typed t && t.hubLinks() > 0) steps.add(new TierStep(policy));
        // the near-duplicate merge before decay, so a merged memory fades once
        consolidation.stream().filter(s -> s instanceof MergeStep).forEach(steps::add);
        steps.add(new DecayStep(policy));
        // compression and contradictions after decay and before gc, so gc sees what they lowered and never
        // collects a pair it just reported
        consolidation.stream().filter(s -> !(s instanceof MergeStep)).forEach(steps::add);
        steps.add(new GcStep(policy));
        return steps;
    }

    /** Lets the composition root hand over the configured model (the LLM client lives outside the engine). */
    public void useJudge(ContradictionJudge judge) {
        this.judge = judge;
    }

    public String owner() {
        return owner;
    }

    /**
     * Runs a cycle now (the command and the tool): {@code zone} null for every zone. Refused with a
     * {@link ConflictException} while another process holds the lease.
     */
    public MaintenanceReport run(LifecyclePolicy policy, String zone, boolean dryRun) {
        return run(policy, defaultSteps(policy, judge), zone, dryRun);
    }

    public MaintenanceReport run(LifecyclePolicy policy, List<MaintenanceStep> steps, String zone, boolean dryRun) {
        if (dryRun) return cycle(policy, steps, zone, true);
        Optional<MaintenanceLease.Holder> other = MaintenanceLease.acquire(store, owner, clock.instant(), null);
        if (other.isPresent()) {
            throw new ConflictException("another process (" + other.get().owner() + ") is running a maintenance cycle on this"
                    + " store until at most " + other.get().until() + "; try again after it, or send dry-run to see what would change");
        }
        return leased(policy, steps, zone);
    }

    /**
     * The scheduler's run: a cycle over every zone when none ran within the policy's interval (in any
     * process) and nobody holds the lease; empty otherwise.
     */
    public Optional<MaintenanceReport> runIfDue(LifecyclePolicy policy, java.time.Duration interval) {
        Instant now = clock.instant();
        if (!MaintenanceLease.due(store.mark(MaintenanceLease.LAST_RUN), now, interval)) return Optional.empty();
        if (MaintenanceLease.acquire(store, owner, now, interval).isPresent()) return Optional.empty();
        return Optional.of(leased(policy, defaultSteps(policy, judge), null));
    }

    private MaintenanceReport leased(LifecyclePolicy policy, List<MaintenanceStep> steps, String zone) {
        MaintenanceReport report = null;
        try {
            report = cycle(policy, steps, zone, false);
            return report;
        } finally {
            MaintenanceLease.release(store, owner, report != null ? report.finishedAt() : clock.instant());
        }
    }

    private MaintenanceReport cycle(LifecyclePolicy policy, List<MaintenanceStep> steps, String zone, boolean dryRun) {
        Instant started = clock.instant();
        List<StepReport> reports = new ArrayList<>();
        for (MaintenanceStep step : steps) {
            // every step sees the instant of its own start: later steps see what earlier ones wrote
            reports.add(step.run(new MaintenanceContext(store, index, embedder, clock.instant(), zone, dryRun)));
        }
        return new MaintenanceReport(policy.name(), zone, dryRun, owner, started, clock.instant(), reports);
    }

    /** One memory's importance before and after a rating. */
    public record Adapted(String id, double before, double after) {
    }

    /** A memory a session's rating left as it was, and why (the window's bound). */
    public record Skipped(String id, String reason) {
    }

    /** What one session's rating did: the memories adapted, and those its window left alone. */
    public record Rating(List<Adapted> adapted, List<Skipped> skipped) {
        public Rating {
            adapted = List.copyOf(adapted);
            skipped = List.copyOf(skipped);
        }
    }

    /** Store mark prefix of a session's feedback window: {@code lifecycle.feedback.<hash>} = "start-millis id,id,…". */
    public static final String FEEDBACK_MARK = "lifecycle.feedback.";

    /**
     * A rating by {@code session} (null: the calls without one, which share a window): as
     * {@link #adaptImportance(String, List, boolean, boolean, FeedbackRules)}, within the session's window
     * ({@link FeedbackRules#window()}, {@link FeedbackRules#perSession()}): a memory this session's feedback adapted
     * in the window already, or past the window's count, is skipped. The window lives in a store mark written in
     * the same transaction, so processes sharing the store share it. An unknown id changes nothing and throws.
     */
    public Rating rate(String zone, String session, List<String> ids, boolean relevant, boolean sufficient,
                       FeedbackRules rules) {
        Instant now = clock.instant();
        Rating out = store.write(tx -> rate(tx, zone, session, ids, relevant, sufficient, rules, now));
        if (!out.adapted().isEmpty()) index.catchUpAfterWrite();
        return out;
    }

    /** A rating as logged ({@link ToolFeedback}, with its id, time and session) and what it did to the memories it named. */
    public record Feedback(ToolFeedback logged, Rating rating) {
    }

    /**
     * Logs {@code rating} in {@code zone}'s feedback log ({@link FeedbackLog}) for {@code session} and, when it names
     * memories ({@code ids}, may be empty), rates them as {@link #rate} does, all in one store write: an unknown id
     * throws and neither the log nor any importance changes.
     */
    public Feedback feedback(String zone, String session, ToolFeedback rating, List<String> ids, FeedbackRules rules) {
        Instant now = clock.instant();
        List<String> named = ids == null ? List.of() : ids;
        Feedback out = store.write(tx -> {
            if (zone != null) tx.zoneInfo(zone); // a guarded store refuses a zone the caller may not read
            Rating r = named.isEmpty() ? new Rating(List.of(), List.of())
                    : rate(tx, zone, session, named, rating.relevant(), rating.sufficient(), rules, now);
            String mark = FeedbackLog.mark(zone);
            FeedbackLog.Entries log = FeedbackLog.decode(tx.mark(mark).orElse(""));
            List<String> targets = new ArrayList<>();
            r.adapted().forEach(a -> targets.add(a.id()));
            r.skipped().forEach(k -> targets.add(k.id()));
            ToolFeedback logged = rating.logged(log.next(), now, session, targets);
            tx.putMark(mark, FeedbackLog.encode(FeedbackLog.append(log, logged)));
            return new Feedback(logged, r);
        });
        if (!out.rating().adapted().isEmpty()) index.catchUpAfterWrite();
        return out;
    }

    /** {@code zone}'s feedback log as kept (the newest {@link FeedbackLog#KEEP} ratings, oldest first). */
    public FeedbackLog.Entries feedbackLog(String zone) {
        if (zone != null) store.zoneInfo(zone); // a guarded store refuses a zone the caller may not read
        return FeedbackLog.decode(store.mark(FeedbackLog.mark(zone)).orElse(""));
    }

    /** What {@code zone}'s feedback log shows now ({@link FeedbackLog#summarize}). */
    public FeedbackLog.Summary feedbackSummary(String zone) {
        return FeedbackLog.summarize(feedbackLog(zone), clock.instant());
    }

    private Rating rate(dev.engram.spi.StoreTransaction tx, String zone, String session, List<String> ids, boolean relevant,
                        boolean sufficient, FeedbackRules rules, Instant now) {
        String mark = FEEDBACK_MARK + windowKey(zone, session);
        List<Memory> targets = targets(tx, zone, ids);
        long start = now.toEpochMilli();
        java.util.LinkedHashSet<String> seen = new java.util.LinkedHashSet<>();
        Optional<String> held = tx.mark(mark);
        if (held.isPresent()) {
            String[] parts = held.get().split(" ", 2);
            try {
                long opened = Long.parseLong(parts[0]);
                if (Instant.ofEpochMilli(opened).plus(rules.window()).isAfter(now)) {
                    start = opened;
                    if (parts.length > 1 && !parts[1].isEmpty()) seen.addAll(List.of(parts[1].split(",")));
                }
            } catch (NumberFormatException unreadable) {
                // a mark this code did not write: open a new window
            }
        }
        Instant until = Instant.ofEpochMilli(start).plus(rules.window());
        List<Adapted> adapted = new ArrayList<>();
        List<Skipped> skipped = new ArrayList<>();
        for (Memory m : targets) {
            if (seen.contains(m.id())) {
                skipped.add(new Skipped(m.id(), "this session's feedback adapted it already; again after " + until));
            } else if (seen.size() >= rules.perSession()) {
                skipped.add(new Skipped(m.id(), "this session's feedback adapted " + rules.perSession()
                        + " fragments already (the most per " + rules.window().toHours() + " h); again after " + until));
            } else {
                adapted.add(adapt(tx, m, relevant, sufficient, rules, now));
                seen.add(m.id());
            }
        }
        tx.putMark(mark, start + " " + String.join(",", seen));
        return new Rating(adapted, skipped);
    }

    private static String windowKey(String zone, String session) {
        return Sha256.hex((zone == null ? "" : zone) + '\0' + (session == null ? "" : session), 12);
    }

    private static List<Memory> targets(dev.engram.spi.StoreTransaction tx, String zone, List<String> ids) {
        List<Memory> targets = new ArrayList<>();
        for (String id : ids) {
            Memory m = tx.get(id).filter(x -> zone == null || x.zone().equals(zone))
                    .orElseThrow(() -> NotFoundException.memory(id, zone));
            if (targets.stream().noneMatch(t -> t.id().equals(m.id()))) targets.add(m);
        }
        return targets;
    }

    private static Adapted adapt(dev.engram.spi.StoreTransaction tx, Memory m, boolean relevant, boolean sufficient,
                                 FeedbackRules rules, Instant now) {
        Memory fresh = tx.get(m.id()).orElseThrow();
        double before = NumericImportance.of(fresh);
        double after = rules.adapt(before, relevant, sufficient);
        tx.update(fresh.toBuilder().importance(NumericImportance.level(after))
                .relevance(NumericImportance.toRelevance(after)).updatedAt(now).build());
        return new Adapted(m.id(), before, after);
    }

    /**
     * Feedback-adaptive importance: each of these memories (of {@code zone}, by id) has its stored importance
     * multiplied by the rating's step and clamped ({@link FeedbackRules}), with no session window (a caller's own
     * tuning; tools rate through {@link #rate}). All or nothing: an unknown id changes nothing and is a
     * {@link NotFoundException} naming it.
     */
    public List<Adapted> adaptImportance(String zone, List<String> ids, boolean relevant, boolean sufficient,
                                         FeedbackRules rules) {
        Instant now = clock.instant();
        List<Adapted> out = store.write(tx -> {
            List<Adapted> adapted = new ArrayList<>();
            for (Memory m : targets(tx, zone, ids)) adapted.add(adapt(tx, m, relevant, sufficient, rules, now));
            return adapted;
        });
        if (!out.isEmpty()) index.catchUpAfterWrite();
        return out;
    }
}
