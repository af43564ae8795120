package dev.engram.engine.lifecycle;

import dev.engram.analysis.Words;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryVersion;
import dev.engram.rank.NumericImportance;
import dev.engram.spi.StoredEmbedding;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code compress}: Memento's compression of old fragments, without a model. Eligible are active memories that
 * <ul>
 *   <li>are idle: not recalled (or, never recalled, not written) for {@link ConsolidationPolicy#compressIdle()}, as
 *       Memento reads its {@code accessed_at};</li>
 *   <li>matter little: importance (0..1) below {@link ConsolidationPolicy#compressMaxImportance()};</li>
 *   <li>are not exempt: never a pinned memory (an anchor, or what a user pinned), never a type that does not fade
 *       (errors, preferences, entities) and so nothing Memento keeps permanent;</li>
 *   <li>have a vector.</li>
 * </ul>
 * Within one topic, a memory and its eligible neighbours at cosine {@link ConsolidationPolicy#compressCosine()} or
 * closer form a group (up to {@link ConsolidationPolicy#compressMaxGroup()}); a group of at least
 * {@link ConsolidationPolicy#compressMinGroup()} becomes one representative: the most important member (then the
 * most recalled, then the oldest) keeps its content and gains, within {@link ConsolidationPolicy#contentLimit()}
 * characters, the first sentence of each other member that adds words ("Also: …"); its old content is kept as a
 * version, it takes the members' tags, links and recall counts, and is re-embedded. The other members are archived
 * with a {@code supersedes} edge from it: restorable, never deleted. A dry run reports the groups and writes nothing.
 */
public final class CompressStep implements MaintenanceStep {
    private final ConsolidationPolicy policy;

    public CompressStep(ConsolidationPolicy policy) {
        this.policy = policy;
    }

    @Override
    public String name() {
        return "compress";
    }

    /** Whether {@code m} may be folded into a representative at {@code now}. */
    boolean eligible(MaintenanceContext c, Memory m) {
        Instant last = m.lastAccessedAt() != null && m.lastAccessedAt().isAfter(m.createdAt()) ? m.lastAccessedAt() : m.createdAt();
        return !m.pinned() && m.type().decays() && NumericImportance.of(m) < policy.compressMaxImportance()
                && Duration.between(last, c.now()).compareTo(policy.compressIdle()) >= 0
                && c.store().embedding(m.id()).isPresent();
    }

    @Override
    public StepReport run(MaintenanceContext c) {
        c.index().catchUp();
        List<Memory> all = Neighbours.active(c);
        Map<String, List<Memory>> byTopic = new LinkedHashMap<>();
        for (Memory m : all) {
            if (eligible(c, m)) byTopic.computeIfAbsent(policy.topicOf(m), k -> new ArrayList<>()).add(m);
        }
        Comparator<Memory> rank = Comparator.comparingDouble((Memory m) -> NumericImportance.of(m)).reversed()
                .thenComparing(Comparator.comparingLong(Memory::accessCount).reversed())
                .thenComparing(Memory::createdAt);
        List<List<Memory>> groups = new ArrayList<>();
        for (List<Memory> topic : byTopic.values()) {
            if (topic.size() < policy.compressMinGroup()) continue;
            Set<String> members = new HashSet<>();
            topic.forEach(m -> members.add(m.id()));
            Set<String> assigned = new HashSet<>();
            List<Memory> ordered = topic.stream().sorted(rank).toList();
            for (Memory m : ordered) {
                if (assigned.contains(m.id())) continue;
                List<Memory> group = new ArrayList<>(List.of(m));
                for (Neighbours.Near n : Neighbours.byVector(c, m, Set.of(), policy.compressMaxGroup() * 2)) {
                    if (group.size() >= policy.compressMaxGroup()) break;
                    String id = n.memory().id();
                    if (n.similarity() < policy.compressCosine() || !members.contains(id) || assigned.contains(id)) continue;
                    group.add(n.memory());
                }
                if (group.size() >= policy.compressMinGroup()) {
                    group.forEach(g -> assigned.add(g.id()));
                    group.sort(rank);
                    groups.add(group);
                }
            }
        }
        List<StepReport.Finding> findings = new ArrayList<>();
        int changed = 0;
        for (List<Memory> group : groups) {
            if (changed + group.size() - 1 > policy.maxPerCycle()) break;
            Memory keeper = group.get(0);
            String content = representative(keeper, group.subList(1, group.size()));
            List<String> ids = group.stream().map(Memory::id).toList();
            String detail = (group.size() - 1) + " memories of topic " + topicName(keeper) + " "
                    + (c.dryRun() ? "would be folded" : "folded") + " into '" + keeper.key() + "'"
                    + (content.equals(keeper.content()) ? "" : " (content now: " + content + ")")
                    + "; archived, restorable with forget action=restore";
            if (!c.dryRun() && !write(c, keeper, group.subList(1, group.size()), content)) continue;
            changed += group.size() - 1;
            findings.add(new StepReport.Finding("compressed", ids, detail));
        }
        if (changed > 0 && !c.dryRun()) c.index().catchUpAfterWrite();
        return new StepReport(name(), all.size(), changed, findings);
    }

    private String topicName(Memory m) {
        String t = policy.topicOf(m);
        int bar = t.indexOf('|');
        return bar < 0 ? "(zone " + t + ")" : t.substring(bar + 1);
    }

    /** The keeper's content and, while it fits, the first sentence of each member that adds words. */
    String representative(Memory keeper, List<Memory> others) {
        Set<String> known = new HashSet<>(Words.setOf(keeper.content()));
        StringBuilder extra = new StringBuilder();
        String base = keeper.content().strip();
        for (Memory o : others) {
            String sentence = firstSentence(o.content());
            Set<String> words = Words.setOf(sentence);
            if (known.containsAll(words)) continue;
            String next = (extra.length() == 0 ? "" : "; ") + sentence;
            String candidate = base + " Also: " + extra + next + ".";
            if (candidate.length() > policy.contentLimit()) continue;
            extra.append(next);
            known.addAll(words);
        }
        return extra.length() == 0 ? keeper.content() : base + " Also: " + extra + ".";
    }

    private static String firstSentence(String content) {
        String s = content.strip();
        int end = -1;
        for (int i = 0; i < s.length() - 1; i++) {
            char ch = s.charAt(i);
            if ((ch == '.' || ch == '!' || ch == '?' || ch == '\n') && Character.isWhitespace(s.charAt(i + 1))) {
                end = i;
                break;
            }
        }
        s = end < 0 ? s : s.substring(0, end);
        while (!s.isEmpty() && ".!?;".indexOf(s.charAt(s.length() - 1)) >= 0) s = s.substring(0, s.length() - 1);
        return s.strip();
    }

    /** One transaction: the representative, then each member absorbed. False when the group changed meanwhile. */
    private boolean write(MaintenanceContext c, Memory keeper, List<Memory> others, String content) {
        boolean rewritten = !content.equals(keeper.content());
        Optional<StoredEmbedding> vector = rewritten && c.embedder() != null && c.embedder().ready()
                ? embed(c, content) : Optional.empty();
        Instant now = c.now();
        return c.store().write(tx -> {
            Memory k = tx.get(keeper.id()).orElse(null);
            if (k == null || k.status() != MemoryStatus.ACTIVE || !k.content().equals(keeper.content())) return false;
            List<Memory> current = new ArrayList<>();
            for (Memory o : others) {
                Memory m = tx.get(o.id()).orElse(null);
                if (m == null || m.status() != MemoryStatus.ACTIVE) return false;
                current.add(m);
            }
            long uses = k.accessCount();
            for (Memory m : current) uses += m.accessCount();
            if (rewritten) {
                tx.addVersion(new MemoryVersion(k.id(), tx.versionCount(k.id()) + 1, k.content(), k.tags(), k.importance(), now));
            }
            k = k.toBuilder().content(content).accessCount(uses).updatedAt(now).build();
            tx.update(k);
            if (rewritten) {
                if (vector.isPresent()) tx.putEmbedding(k.id(), vector.get());
                else tx.clearEmbedding(k.id());
            }
            for (Memory m : current) k = DuplicateMerge.absorb(tx, k, m, now);
            return true;
        });
    }

    private static Optional<StoredEmbedding> embed(MaintenanceContext c, String content) {
        try {
            return Optional.of(new StoredEmbedding(c.embedder().modelId(), c.embedder().embed(content)));
        } catch (RuntimeException e) {
            return Optional.empty(); // stored without a vector; the backfill embeds it later
        }
    }
}
