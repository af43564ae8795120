package dev.engram.engine;

import dev.engram.error.InvalidArgumentException;
import dev.engram.memory.MemoryRules;
import dev.engram.memory.MemoryType;
import java.util.List;
import java.util.Set;

/**
 * Find memories. {@code query} may be blank only in index mode (lists newest first) or ids mode.
 * Null means default: {@code limit} from the budget, {@code budget} normal, {@code budgetTokens} no
 * cap, {@code mode} ids when {@code ids} are given, else ranked; ids with another mode are refused. {@code from}, {@code to} and {@code asOf} are dates, instants or
 * relative ages such as {@code 7d}; {@code path} is a glob matched against file and path scope.
 * {@code hops} (1 or 2) makes a ranked recall walk the graph that far from its hits (null: the settings' depth,
 * two in hybrid); {@code rankFusion} scores by reciprocal ranks ({@link dev.engram.rank.RankFusion}) instead of
 * the weighted sum; {@code bias} is what the caller favours beyond the words ({@link RecallBias}).
 * {@code includeSuperseded} also finds memories a newer one superseded (status superseded), which recall
 * otherwise leaves out; archived and draft memories stay out either way. {@code priming} (null: none) is what the
 * caller is working on: the memories around it are recorded as read, for the searches that follow
 * ({@link ContextActivation}); this recall's ranking is not changed by it. {@code peek} is a look that is not a read:
 * nothing is recorded as accessed (a tool's aside, such as the entries related to one just saved).
 */
public record RecallQuery(String query, Integer limit, Budget budget, Integer budgetTokens, RecallMode mode,
                          List<String> ids, boolean explain, String zone, Set<MemoryType> types, List<String> tags,
                          String from, String to, String path, String asOf, boolean includeSuperseded, Integer hops,
                          boolean rankFusion, RecallBias bias, ContextPriming priming, boolean peek) {
    public static final int MAX_LIMIT = 100;

    public RecallQuery {
        query = query == null ? "" : query.strip();
        ids = ids == null ? List.of() : MemoryRules.references("ids", ids);
        if (mode != null && mode != RecallMode.IDS && !ids.isEmpty()) {
            throw new InvalidArgumentException("ids", "is only read in mode 'ids', and mode is '" + mode.wireName()
                    + "'; omit mode (or send mode 'ids') to fetch these memories, or omit ids to search");
        }
        // ids without a mode mean "fetch these", as toon-memory reads them: never silently a search
        mode = mode == null ? (ids.isEmpty() ? RecallMode.RANKED : RecallMode.IDS) : mode;
        budget = budget == null ? Budget.NORMAL : budget;
        if (limit != null && (limit < 1 || limit > MAX_LIMIT)) {
            throw new InvalidArgumentException("limit", "must be 1.." + MAX_LIMIT + ", got " + limit
                    + "; for more, call recall with mode 'index' and fetch the ones you need by ids");
        }
        if (budgetTokens != null && (budgetTokens < 20 || budgetTokens > 100_000)) {
            throw new InvalidArgumentException("budget_tokens", "must be 20..100000, got " + budgetTokens);
        }
        if (mode == RecallMode.IDS && ids.isEmpty()) {
            throw new InvalidArgumentException("ids", "is required in mode 'ids': a list of memory ids or keys");
        }
        if (mode == RecallMode.RANKED && query.isEmpty() && ids.isEmpty()) {
            throw new InvalidArgumentException("query", "is required: a few words about what you need"
                    + " (or use mode 'index' to list memories, or 'ids' to fetch some)");
        }
        zone = MemoryRules.zone("zone", zone);
        types = types == null ? Set.of() : Set.copyOf(types);
        tags = MemoryRules.tags("tags", tags);
        from = RememberCommand.blankToNull(from);
        to = RememberCommand.blankToNull(to);
        path = RememberCommand.blankToNull(path);
        asOf = RememberCommand.blankToNull(asOf);
        if (hops != null && (hops < 1 || hops > 2)) {
            throw new InvalidArgumentException("hops", "must be 1 or 2, got " + hops);
        }
        bias = bias == null ? RecallBias.NONE : bias;
    }

    public RecallQuery(String query, Integer limit, Budget budget, Integer budgetTokens, RecallMode mode,
                       List<String> ids, boolean explain, String zone, Set<MemoryType> types, List<String> tags,
                       String from, String to, String path, String asOf) {
        this(query, limit, budget, budgetTokens, mode, ids, explain, zone, types, tags, from, to, path, asOf, false, null,
                false, null, null, false);
    }

    public static RecallQuery of(String query) {
        return new RecallQuery(query, null, null, null, null, null, false, null, null, null, null, null, null, null);
    }

    public int effectiveLimit() {
        return limit != null ? limit : budget.results();
    }

    public static Builder builder(String query) {
        return new Builder(query);
    }

    /** Named-argument construction; {@link #build()} validates. */
    public static final class Builder {
        private final String query;
        private Integer limit, budgetTokens, hops;
        private boolean rankFusion;
        private RecallBias bias;
        private ContextPriming priming;
        private Budget budget;
        private RecallMode mode;
        private List<String> ids, tags;
        private boolean explain, includeSuperseded, peek;
        private String zone, from, to, path, asOf;
        private Set<MemoryType> types;

        public Builder(String query) {
            this.query = query;
        }

        public Builder limit(Integer v) { limit = v; return this; }
        public Builder budget(Budget v) { budget = v; return this; }
        public Builder budgetTokens(Integer v) { budgetTokens = v; return this; }
        public Builder mode(RecallMode v) { mode = v; return this; }
        public Builder ids(List<String> v) { ids = v; return this; }
        public Builder explain(boolean v) { explain = v; return this; }
        public Builder zone(String v) { zone = v; return this; }
        public Builder types(Set<MemoryType> v) { types = v; return this; }
        public Builder tags(List<String> v) { tags = v; return this; }
        public Builder from(String v) { from = v; return this; }
        public Builder to(String v) { to = v; return this; }
        public Builder path(String v) { path = v; return this; }
        public Builder asOf(String v) { asOf = v; return this; }
        public Builder hops(Integer v) { hops = v; return this; }
        public Builder rankFusion(boolean v) { rankFusion = v; return this; }
        public Builder bias(RecallBias v) { bias = v; return this; }
        public Builder includeSuperseded(boolean v) { includeSuperseded = v; return this; }
        public Builder priming(ContextPriming v) { priming = v; return this; }
        public Builder peek(boolean v) { peek = v; return this; }

        public RecallQuery build() {
            return new RecallQuery(query, limit, budget, budgetTokens, mode, ids, explain, zone, types, tags, from, to,
                    path, asOf, includeSuperseded, hops, rankFusion, bias, priming, peek);
        }
    }
}
