package dev.engram.cli.hook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.mcp.json.JsonText;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading a transcript the event names: only a regular file, only its end. */
class TranscriptTest {
    private static final JsonText JSON = JsonText.standard();
    @TempDir
    Path dir;

    private static String edit(String file) {
        return "{\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"name\":\"Edit\",\"input\":{\"file_path\":\""
                + file + "\"}}]}}\n";
    }

    @Test
    void onlyTheEndOfALongTranscriptIsRead() throws IOException {
        Path transcript = dir.resolve("long.jsonl");
        String filler = "{\"message\":{\"role\":\"user\",\"content\":\"" + "x".repeat(1000) + "\"}}\n";
        try (Writer w = Files.newBufferedWriter(transcript, StandardCharsets.UTF_8)) {
            w.write(edit("src/early.ts"));
            for (int i = 0; i < Transcript.TAIL_BYTES / filler.length() + 100; i++) w.write(filler);
            w.write(edit("src/late.ts"));
        }
        List<String> notes = new ArrayList<>();
        // all lines asked for: what bounds the read is the bytes, not the line count
        assertEquals(List.of("src/late.ts"), Transcript.touchedFiles(transcript.toString(), Integer.MAX_VALUE, 10, JSON::readObject,
                notes::add));
        assertEquals(List.of(), notes);
        assertTrue(Transcript.recentLines(transcript.toString(), Integer.MAX_VALUE, notes::add).stream()
                .allMatch(l -> l.startsWith("{\"message\"")), "the line cut at the start of the tail is dropped");
    }

    @Test
    void aPathThatIsNotARegularFileIsNotReadAndSaidSo() {
        List<String> notes = new ArrayList<>();
        long start = System.nanoTime();
        assertEquals(List.of(), Transcript.touchedFiles("/dev/zero", 400, 10, JSON::readObject, notes::add));
        assertEquals(List.of(), Transcript.tail(dir.toString(), 400, 300, true, JSON::readObject, notes::add));
        assertTrue(System.nanoTime() - start < 2_000_000_000L, "/dev/zero never ends: it must not be read");
        assertEquals(List.of("the transcript /dev/zero is not a regular file; going on without it",
                "the transcript " + dir + " is not a regular file; going on without it"), notes);
        assertEquals(List.of(), Transcript.recentLines(dir.resolve("missing.jsonl").toString(), 400, notes::add));
        assertEquals(2, notes.size(), "a transcript not written yet is nothing to say");
    }
}
