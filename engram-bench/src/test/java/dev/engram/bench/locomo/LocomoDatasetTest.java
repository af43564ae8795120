package dev.engram.bench.locomo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocomoDatasetTest {
    @TempDir
    Path dir;

    @Test
    void evidenceIsSplitFilteredAndDeduplicated() {
        assertEquals(List.of("D8:6", "D9:17", "D1:3"),
                LocomoDataset.normalise(List.of("D8:6; D9:17", "D1:3", "D8:6", "D", "D:11:26", " D1:3 ")));
    }

    @Test
    void turnsBecomeKeyedMemoriesWithSpeakerAndCaptionTheDateOnlyWhenEnriched() {
        var turn = new LocomoConversation.Turn("D12:34", "Melanie", "Look at this!", "a photo of a lake", "1:56 pm on 8 May, 2023");
        assertEquals("d12-34", turn.key());
        assertEquals("Melanie: Look at this! [image: a photo of a lake]", turn.content());
        assertEquals("Melanie: Look at this! [image: a photo of a lake] (1:56 pm on 8 May, 2023)",
                turn.content(LocomoConversation.Ingest.ENRICHED));
    }

    @Test
    void readsConversationsAndAppliesOnlyWrongCitationCorrections() throws IOException {
        Path data = Files.writeString(dir.resolve("locomo.json"), """
                [{"sample_id":"conv-x","conversation":{"speaker_a":"A","speaker_b":"B",
                   "session_1_date_time":"1:00 pm on 1 May, 2023",
                   "session_1":[{"speaker":"A","dia_id":"D1:1","text":"hi"},
                                {"speaker":"B","dia_id":"D1:2","text":"look","blip_caption":"a dog"}],
                   "session_2_date_time":"2:00 pm on 2 May, 2023",
                   "session_2":[{"speaker":"A","dia_id":"D2:1","text":"bye"}]},
                  "qa":[{"question":"Who said hi?","answer":"A","evidence":["D1:1"],"category":4},
                        {"question":"Trick?","adversarial_answer":"x","evidence":["D2:1; D1:2"],"category":5}]}]""");
        List<LocomoConversation> conversations = LocomoDataset.read(data);
        assertEquals(1, conversations.size());
        LocomoConversation c = conversations.get(0);
        assertEquals(List.of("D1:1", "D1:2", "D2:1"), c.turns().stream().map(LocomoConversation.Turn::diaId).toList());
        assertEquals("B: look [image: a dog] (1:00 pm on 1 May, 2023)", c.turns().get(1).content(LocomoConversation.Ingest.ENRICHED));
        assertEquals(List.of("D2:1", "D1:2"), c.questions().get(1).evidence());
        assertEquals(5, c.questions().get(1).category());

        Path audit = Files.writeString(dir.resolve("audit.json"), """
                [{"question_id":"locomo_0_qa0","error_type":"WRONG_CITATION","cited_evidence":["D1:1"],"correct_evidence":["D1:2"]},
                 {"question_id":"locomo_0_qa1","error_type":"HALLUCINATION","correct_evidence":["D1:1"]}]""");
        Map<String, List<String>> corrections = LocomoDataset.auditCorrections(audit);
        assertEquals(Map.of("locomo_0_qa0", List.of("D1:2")), corrections);
        assertEquals("locomo_0_qa0", LocomoDataset.auditKey(0, 0));
    }
}
