package dev.engram.bench.locomo;

import java.util.List;
import java.util.Locale;

/**
 * One LoCoMo conversation as the harness needs it: its position in the file (the audit overlay's
 * {@code locomo_<index>} and the dev/test split use it), the turns in order, and the questions.
 */
record LocomoConversation(int index, String sampleId, List<Turn> turns, List<Question> questions) {
    LocomoConversation {
        turns = List.copyOf(turns);
        questions = List.copyOf(questions);
    }

    /** A dialogue turn; {@code caption} is the BLIP caption of a shared image, or null. */
    record Turn(String diaId, String speaker, String text, String caption, String sessionDate) {
        /** The memory content: who said what, the image caption if any, and when the session took place. */
        String content() {
            return content(TurnText.DATED);
        }

        String content(TurnText format) {
            String said = speaker + ": " + text + (caption == null ? "" : " [image: " + caption + "]");
            return format == TurnText.DATED ? said + " (" + sessionDate + ")" : said;
        }

        /** The memory key: {@code D1:3} becomes {@code d1-3}. */
        String key() {
            return keyOf(diaId);
        }
    }

    /** A question; {@code qaIndex} is its 0-based position in the conversation's qa list. */
    record Question(int qaIndex, String text, int category, List<String> evidence) {
        Question {
            evidence = List.copyOf(evidence);
        }
    }

    /** Whether a turn's memory carries its session date (the default) or only speaker, text and caption. */
    enum TurnText { DATED, PLAIN }

    static String keyOf(String diaId) {
        return diaId.toLowerCase(Locale.ROOT).replace(':', '-');
    }
}
