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
        /**
         * The memory content as an MCP client writes it: who said what, and the image caption if any
         * ({@code Speaker: text [image: caption]}); nothing else.
         */
        String content() {
            return content(Ingest.PLAIN);
        }

        /** {@link Ingest#ENRICHED} also appends the session date, which no client puts into content by default. */
        String content(Ingest ingest) {
            String said = speaker + ": " + text + (caption == null ? "" : " [image: " + caption + "]");
            return ingest == Ingest.ENRICHED ? said + " (" + sessionDate + ")" : said;
        }

        /**
         * The session date as an ISO instant for remember's {@code occurred_at} (LoCoMo writes
         * "1:56 pm on 8 May, 2023"), read as UTC.
         */
        String occurredAt() {
            java.time.format.DateTimeFormatter f = new java.time.format.DateTimeFormatterBuilder().parseCaseInsensitive()
                    .appendPattern("h:mm a 'on' d MMMM, yyyy").toFormatter(Locale.ENGLISH);
            return java.time.LocalDateTime.parse(sessionDate.strip(), f).toInstant(java.time.ZoneOffset.UTC).toString();
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

    /**
     * How the turns are written. {@code PLAIN} (the default) is exactly what an MCP client sends by
     * default: {@code {key, type: "fact", content: "Speaker: text [image: caption]"}}, no dates, no links.
     * {@code ENRICHED} is the bench's earlier ingestion, kept as a labelled secondary row: the session date
     * appended to the content and each turn linked ({@code related}) to the one before it in its session.
     */
    enum Ingest {
        PLAIN, ENRICHED, SESSIONLESS, TIMED, KEYLESS;

        String label() {
            return switch (this) {
                case PLAIN -> "plain (client-like)";
                case ENRICHED -> "enriched (date in content, turns linked)";
                case SESSIONLESS -> "plain, no client session (no inferred episodes)";
                case TIMED -> "plain + occurred_at (the session date)";
                case KEYLESS -> "plain, no key (the engine derives one)";
            };
        }
    }

    static String keyOf(String diaId) {
        return diaId.toLowerCase(Locale.ROOT).replace(':', '-');
    }
}
