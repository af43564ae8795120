package dev.engram.bench.locomo;

import dev.engram.bench.locomo.LocomoConversation.Question;
import dev.engram.bench.locomo.LocomoConversation.Turn;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads {@code locomo10.json} and the audit overlay {@code locomo-audit-errors.json}. Evidence ids are
 * normalised as benchmarks.md §1.3 says: split on {@code [;,\s]+}, keep {@code D<n>:<n>}, dedupe;
 * ids that name no turn (5 in the file) are dropped when gold sets are built.
 */
final class LocomoDataset {
    private static final Pattern SEPARATORS = Pattern.compile("[;,\\s]+");
    private static final Pattern DIA_ID = Pattern.compile("D\\d+:\\d+");
    /** Sessions are numbered from 1 with no gaps in the released file; the bound only stops the scan. */
    private static final int MAX_SESSIONS = 200;

    private LocomoDataset() {
    }

    static List<LocomoConversation> read(Path file) throws IOException {
        JsonNode root;
        try (InputStream in = Files.newInputStream(file)) {
            root = JsonMapper.builder().build().readTree(in);
        }
        List<LocomoConversation> out = new ArrayList<>();
        int index = 0;
        for (JsonNode sample : root) {
            out.add(conversation(index++, sample));
        }
        return out;
    }

    private static LocomoConversation conversation(int index, JsonNode sample) {
        JsonNode conv = sample.get("conversation");
        List<Turn> turns = new ArrayList<>();
        for (int n = 1; n <= MAX_SESSIONS; n++) {
            JsonNode session = conv.get("session_" + n);
            if (session == null) continue;
            String date = conv.get("session_" + n + "_date_time").asString();
            for (JsonNode t : session) {
                JsonNode caption = t.get("blip_caption");
                turns.add(new Turn(t.get("dia_id").asString().strip(), t.get("speaker").asString(), t.get("text").asString(),
                        caption == null || caption.isNull() ? null : caption.asString(), date));
            }
        }
        List<Question> questions = new ArrayList<>();
        int qa = 0;
        for (JsonNode q : sample.get("qa")) {
            List<String> evidence = new ArrayList<>();
            JsonNode ev = q.get("evidence");
            if (ev != null) ev.forEach(e -> evidence.add(e.asString()));
            questions.add(new Question(qa++, q.get("question").asString(), q.get("category").asInt(), normalise(evidence)));
        }
        return new LocomoConversation(index, sample.get("sample_id").asString(), turns, questions);
    }

    static List<String> normalise(List<String> rawIds) {
        Set<String> ids = new LinkedHashSet<>();
        for (String raw : rawIds) {
            for (String part : SEPARATORS.split(raw.strip())) {
                if (DIA_ID.matcher(part).matches()) ids.add(part);
            }
        }
        return List.copyOf(ids);
    }

    /**
     * The audit's corrected evidence, keyed {@code locomo_<conversation index>_qa<qa index>}; only
     * WRONG_CITATION findings carry {@code correct_evidence}, and only those are applied.
     */
    static Map<String, List<String>> auditCorrections(Path file) throws IOException {
        JsonNode root;
        try (InputStream in = Files.newInputStream(file)) {
            root = JsonMapper.builder().build().readTree(in);
        }
        Map<String, List<String>> out = new HashMap<>();
        for (JsonNode finding : root) {
            if (!"WRONG_CITATION".equals(finding.path("error_type").asString())) continue;
            JsonNode correct = finding.get("correct_evidence");
            if (correct == null || !correct.isArray()) continue;
            List<String> ids = new ArrayList<>();
            correct.forEach(e -> ids.add(e.asString()));
            out.put(finding.get("question_id").asString(), normalise(ids));
        }
        return out;
    }

    static String auditKey(int conversationIndex, int qaIndex) {
        return "locomo_" + conversationIndex + "_qa" + qaIndex;
    }
}
