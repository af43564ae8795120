package dev.engram.bench.locomo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.engram.bench.locomo.LocomoConversation.Question;
import dev.engram.bench.locomo.LocomoConversation.Turn;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The product path in process (--via tools), lexical only: turns go in through remember, questions through recall. */
class ProductRunTest {
    @Test
    void eachIngestionAndModeAnswersThroughTheToolHandlers() throws Exception {
        LocomoConversation c = new LocomoConversation(2, "conv-test", List.of(
                new Turn("D1:1", "Ann", "I adopted a beagle called Rex last week", null, "1:00 pm on 1 May, 2023"),
                new Turn("D1:2", "Bob", "Congratulations, I love hiking in the mountains", null, "1:00 pm on 1 May, 2023"),
                new Turn("D2:1", "Ann", "Look at my new painting", "a painting of a sunset over a lake", "2:00 pm on 9 May, 2023")),
                List.of(new Question(0, "What is the name of Ann's beagle?", 4, List.of("D1:1")),
                        new Question(1, "What did Ann paint, a sunset?", 4, List.of("D2:1"))));
        for (LocomoConversation.Ingest ingest : LocomoConversation.Ingest.values()) {
            ConversationRun.Outcome o = new ProductRun(ProductRun.Via.TOOLS, ingest, null, null).run(c);
            assertEquals(2, o.questions().size());
            for (String mode : ProductRun.modeNames(ingest)) {
                assertEquals("D1:1", o.questions().get(0).engine(mode).ranking().get(0), mode);
                assertEquals("D2:1", o.questions().get(1).engine(mode).ranking().get(0), mode);
            }
        }
    }
}
