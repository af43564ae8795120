package dev.engram.bench.locomo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.bench.locomo.LocomoConversation.Question;
import dev.engram.bench.locomo.LocomoConversation.Turn;
import java.util.List;
import org.junit.jupiter.api.Test;

/** LoCoMo through the memento profile's tools, lexical only; the fragment split and the agent's keywords. */
class MementoProductRunTest {
    @Test
    void turnsGoInThroughRememberAndQuestionsThroughRecall() throws Exception {
        String longText = "I went to the lake. ".repeat(12) + "Then I swam across it with my cousin Lou, who loves the water.";
        LocomoConversation c = new LocomoConversation(2, "conv-test", List.of(
                new Turn("D1:1", "Ann", "I adopted a beagle called Rex last week", null, "1:00 pm on 1 May, 2023"),
                new Turn("D1:2", "Bob", "Congratulations, I love hiking in the mountains", null, "1:00 pm on 1 May, 2023"),
                new Turn("D1:3", "Bob", "Congratulations, I love hiking in the mountains", null, "1:00 pm on 1 May, 2023"),
                new Turn("D2:1", "Ann", longText, null, "2:00 pm on 9 May, 2023")),
                List.of(new Question(0, "What is the name of Ann's beagle?", 4, List.of("D1:1")),
                        new Question(1, "Where does Bob love hiking?", 4, List.of("D1:2")),
                        new Question(2, "Who loves the water?", 4, List.of("D2:1"))));
        ConversationRun.Outcome o = new MementoProductRun(null).run(c);
        assertEquals("D1:1", o.questions().get(0).engine(MementoProductRun.MODE).ranking().get(0));
        List<String> hiking = o.questions().get(1).engine(MementoProductRun.MODE).ranking();
        assertEquals(List.of("D1:2", "D1:3"), hiking.subList(0, 2), "a merged fragment stands for both turns that said it");
        assertEquals("D2:1", o.questions().get(2).engine(MementoProductRun.MODE).ranking().get(0), "the split turn is found by its tail");
        assertTrue(o.questions().get(0).engine(MementoProductRun.MODE).tokens() > 0);
    }

    @Test
    void aLongTurnIsSplitAtSentenceEndsIntoFragmentsOf300WithTheSpeaker() {
        Turn t = new Turn("D1:1", "Caroline", "First sentence here. ".repeat(20) + ("word ".repeat(80)).strip(), null, "x");
        List<String> parts = MementoProductRun.fragments(t);
        assertTrue(parts.size() >= 3, parts.toString());
        for (String p : parts) {
            assertTrue(p.length() <= 300, p.length() + ": " + p);
            assertTrue(p.startsWith("Caroline: "), p);
        }
        assertEquals(t.content().replace("Caroline: ", "").replaceAll("\\s+", " "),
                String.join(" ", parts.stream().map(p -> p.substring("Caroline: ".length())).toList()));
        Turn shortTurn = new Turn("D1:2", "Mel", "Short one", null, "x");
        assertEquals(List.of("Mel: Short one"), MementoProductRun.fragments(shortTurn));
    }

    @Test
    void keywordsAreTheQuestionsContentWords() {
        assertEquals(List.of("caroline", "research", "adoption", "agencies"),
                MementoProductRun.keywords("What did Caroline research about adoption agencies?"));
        assertEquals(List.of("melanie", "paint", "sunrise"), MementoProductRun.keywords("When did Melanie paint a sunrise?"));
    }
}
