package dev.engram.cli;

import dev.engram.store.IndexCheck;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

@Command(name = "doctor", mixinStandardHelpOptions = true, description = {"Say where the store is and why that directory, and compare the search index"
        + " with the record; exit 1 if they disagree."})
final class DoctorSubcommand implements Callable<Integer> {
    /** Enough ids to start a repair by hand; the count says how many there are in all. */
    private static final int MAX_IDS_SHOWN = 20;

    @ParentCommand
    EngramCommand root;

    @Override
    public Integer call() {
        EngramConfig config = root.config();
        IndexCheck check;
        try (Main.OpenEngine opened = root.main().openEngine(config)) {
            check = opened.indexCheck().get();
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("store", config.storeDir().toString());
        json.put("store_source", config.store().source().key());
        json.put("store_reason", config.store().why());
        json.put("consistent", check.consistent());
        json.put("records", check.recordCount());
        json.put("indexed", check.indexedCount());
        json.put("missing_from_index", check.missingFromIndex());
        json.put("extra_in_index", check.extraInIndex());
        json.put("head_seq", check.headSeq());
        json.put("indexed_seq", check.indexedSeq());
        String text = "store " + config.storeDir() + "\n"
                + "  " + config.store().why() + "\n"
                + "records " + check.recordCount() + " · indexed " + check.indexedCount()
                + " · change seq " + check.indexedSeq() + "/" + check.headSeq() + "\n"
                + (check.consistent() ? "consistent"
                : "INCONSISTENT: " + check.missingFromIndex().size() + " missing from index "
                + shown(check.missingFromIndex()) + ", " + check.extraInIndex().size() + " extra in index "
                + shown(check.extraInIndex()));
        root.main().printer(config).print(text, json);
        return check.consistent() ? 0 : ErrorReporter.FAILED;
    }

    private static String shown(java.util.List<String> ids) {
        return ids.isEmpty() ? "" : ids.subList(0, Math.min(ids.size(), MAX_IDS_SHOWN)).toString();
    }
}
