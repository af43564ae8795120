package dev.engram.bench.locomo;

import dev.engram.bench.McpSession;
import dev.engram.bench.locomo.ConversationRun.EngineAnswer;
import dev.engram.bench.locomo.ConversationRun.Outcome;
import dev.engram.bench.locomo.ConversationRun.QuestionRun;
import dev.engram.bench.locomo.LocomoConversation.Question;
import dev.engram.bench.locomo.LocomoConversation.Turn;
import dev.engram.analysis.TagVocabulary;
import dev.engram.engine.Engine;
import dev.engram.engine.RecallSettings;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.memento.MementoProfile;
import dev.engram.mcp.render.TokenEstimate;
import dev.engram.mcp.tool.Caller;
import dev.engram.mcp.tool.ToolAdapter;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.memory.MemoryRules;
import dev.engram.spi.Embedder;
import dev.engram.store.EmbeddedStore;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One LoCoMo conversation through the memento profile's tools, in process (the handlers the server runs, through
 * {@link ToolAdapter#call}), as an agent using Memento would: each turn {@code remember {content, topic: the speaker,
 * type: "fact"}} from one client session; each question {@code recall {keywords, text}} with the question's content
 * words as keywords and the question as text, nothing else (Memento's defaults: tokenBudget 1000, pageSize 20,
 * includeLinks). A turn over Memento's 300 characters (279 of the 5,882) is written as Memento asks: split at
 * sentence ends into fragments of at most 300, each starting with the speaker. A fragment stands for its turn; an
 * identical content merged into an earlier fragment stands for every turn that said it.
 */
final class MementoProductRun {
    /** The row name in the tables. */
    static final String MODE = "memento recall {keywords: content words, text: question}";
    private static final int MAX_CHARS = 300;
    private static final Pattern WORD = Pattern.compile("[^\\p{L}\\p{N}']+");
    /** Words an agent leaves out of keywords: function words and the question's own words. */
    private static final Set<String> STOP = Set.of("a", "an", "the", "and", "or", "but", "is", "are", "was", "were", "be", "been",
            "being", "to", "of", "in", "on", "at", "for", "with", "by", "from", "as", "it", "its", "this", "that", "these", "those",
            "do", "does", "did", "done", "has", "have", "had", "will", "would", "can", "could", "should", "may", "might",
            "what", "when", "where", "which", "who", "whom", "whose", "why", "how", "kind", "type", "sort", "many", "much",
            "he", "she", "they", "them", "his", "her", "their", "him", "i", "you", "we", "me", "my", "your", "our",
            "if", "so", "than", "then", "there", "about", "into", "after", "before", "during", "since", "ever", "any",
            "some", "not", "no", "yes", "also", "likely", "would've", "s", "get", "got", "go", "went", "say", "said");
    private static final int KEYWORDS = 6;

    private final Embedder embedder;

    MementoProductRun(Embedder embedder) {
        this.embedder = embedder;
    }

    Outcome run(LocomoConversation conversation) throws IOException {
        Path root = Files.createTempDirectory("engram-locomo-memento-" + conversation.sampleId() + "-");
        try {
            Path ingested = root.resolve("ingested");
            Map<String, List<String>> diaIdsById = new HashMap<>();
            Map<String, Integer> tokensByDiaId = new HashMap<>();
            long ingestStart = System.nanoTime();
            Caller writer = new Caller("locomo-bench-memento/" + conversation.sampleId(), null);
            try (Tools t = new Tools(ingested, embedder)) {
                for (Turn turn : conversation.turns()) {
                    for (String fragment : fragments(turn)) {
                        Map<String, Object> args = new LinkedHashMap<>();
                        args.put("content", fragment);
                        args.put("topic", turn.speaker());
                        args.put("type", "fact");
                        Map<String, Object> r = t.call("remember", args, writer);
                        List<String> turns = diaIdsById.computeIfAbsent(String.valueOf(r.get("id")), k -> new ArrayList<>());
                        if (!turns.contains(turn.diaId())) turns.add(turn.diaId());
                    }
                    tokensByDiaId.put(turn.diaId(), TokenEstimate.of(turn.content()));
                }
            }
            long ingestNanos = System.nanoTime() - ingestStart;
            ProductRun.deleteRecursively(ingested.resolve("index")); // rebuilt on open: BM25 statistics hold every turn once

            List<QuestionRun> runs = new ArrayList<>();
            try (Tools t = new Tools(ingested, embedder)) {
                for (Question q : conversation.questions()) {
                    Map<String, Object> args = new LinkedHashMap<>();
                    List<String> keywords = keywords(q.text());
                    if (!keywords.isEmpty()) args.put("keywords", keywords);
                    args.put("text", q.text());
                    long t0 = System.nanoTime();
                    Map<String, Object> r = t.call("recall", args, Caller.NONE);
                    long nanos = System.nanoTime() - t0;
                    LinkedHashSet<String> ranking = new LinkedHashSet<>();
                    if (r.get("fragments") instanceof List<?> fragments) {
                        for (Object f : fragments) {
                            List<String> turns = diaIdsById.get(String.valueOf(((Map<?, ?>) f).get("id")));
                            if (turns == null) throw new IllegalStateException("recall for '" + q.text() + "' returned an unknown fragment " + f);
                            ranking.addAll(turns);
                        }
                    }
                    int tokens = r.get("totalTokens") instanceof Number n ? n.intValue() : 0;
                    boolean skipped = !(r.get("searchPath") instanceof List<?> path) || path.stream().noneMatch(p -> String.valueOf(p).startsWith("L3"));
                    Map<String, EngineAnswer> answers = new LinkedHashMap<>();
                    answers.put(MODE, new EngineAnswer(List.copyOf(ranking), tokens, nanos, skipped, null));
                    runs.add(new QuestionRun(q, answers, List.of(), 0, List.of(), 0, 0));
                }
            }
            return new Outcome(conversation, runs, tokensByDiaId, ingestNanos, 0);
        } finally {
            ProductRun.deleteRecursively(root);
        }
    }

    /** The question's content words, as an agent passes them: lower case, no function or question words, the first six. */
    static List<String> keywords(String question) {
        LinkedHashSet<String> out = new LinkedHashSet<>();
        for (String w : WORD.split(question.toLowerCase(Locale.ROOT))) {
            String word = w.replaceAll("^'+|'+$", "").replaceAll("'s$", "");
            if (word.length() < 2 || STOP.contains(word) || word.chars().allMatch(Character::isDigit)) continue;
            out.add(word);
            if (out.size() == KEYWORDS) break;
        }
        return List.copyOf(out);
    }

    /** The turn as Memento fragments of at most 300 characters: whole when it fits, else split at sentence ends. */
    static List<String> fragments(Turn turn) {
        String whole = turn.content();
        if (whole.length() <= MAX_CHARS) return List.of(whole);
        String prefix = turn.speaker() + ": ";
        String body = whole.substring(prefix.length());
        List<String> sentences = new ArrayList<>();
        for (String s : body.split("(?<=[.!?])\\s+")) {
            String rest = s.strip();
            while (prefix.length() + rest.length() > MAX_CHARS) { // one sentence too long: cut at a space
                int room = MAX_CHARS - prefix.length();
                int cut = rest.lastIndexOf(' ', room);
                if (cut <= 0) cut = room;
                sentences.add(rest.substring(0, cut).strip());
                rest = rest.substring(cut).strip();
            }
            if (!rest.isEmpty()) sentences.add(rest);
        }
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String s : sentences) {
            if (current.length() > 0 && prefix.length() + current.length() + 1 + s.length() > MAX_CHARS) {
                out.add(prefix + current);
                current.setLength(0);
            }
            if (current.length() > 0) current.append(' ');
            current.append(s);
        }
        if (current.length() > 0) out.add(prefix + current);
        return out;
    }

    /** The memento profile's handlers over an engine built as the server builds it, on an embedded store. */
    private static final class Tools implements AutoCloseable {
        private final EmbeddedStore store;
        private final Map<String, ToolHandler> tools = new HashMap<>();

        Tools(Path dir, Embedder embedder) throws IOException {
            Files.createDirectories(dir);
            Clock clock = Clock.systemUTC();
            store = EmbeddedStore.open(dir, clock);
            Engine engine = new Engine(store.store(), store.index(), clock, TagVocabulary.builtInOnly(), embedder,
                    RecallSettings.defaults());
            for (ToolHandler h : MementoProfile.create(ProfileContext.of(engine, MemoryRules.DEFAULT_ZONE), clock).tools()) {
                tools.put(h.definition().name(), h);
            }
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> call(String tool, Map<String, Object> arguments, Caller caller) {
            CallToolResult r = ToolAdapter.call(tools.get(tool), arguments, caller);
            if (Boolean.TRUE.equals(r.isError())) throw new IllegalStateException(tool + " " + arguments + " failed: " + McpSession.text(r));
            return (Map<String, Object>) r.structuredContent();
        }

        @Override
        public void close() {
            store.close();
        }
    }
}
