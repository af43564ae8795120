package dev.engram.embed;

import dev.engram.spi.Embedder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A loaded model together with the cosine it gives unrelated texts ({@link Embedder#unrelatedCosine()}),
 * measured once on a fixed probe set: sixteen everyday topics, each with a question and two statements
 * that answer it. Every question against every statement of the other fifteen topics is an unrelated
 * pair; their median cosine is the model's baseline. Measured with the models on Maven Central: MiniLM
 * 0.01, e5-small-v2 0.71, bge-small-en-v1.5 0.35 (docs/benchmarks.md §6). Questions go through
 * {@link Embedder#embedQuery} and statements through {@link Embedder#embedAll}, so a model's prefixes
 * count as they do in recall.
 */
public final class CalibratedEmbedder extends ForwardingEmbedder {
    private static final Logger log = LoggerFactory.getLogger(CalibratedEmbedder.class);

    /** {question, statement, statement}: the statements answer their own question only. */
    static final String[][] PROBES = {
        {"how do I rotate the TLS certificate on the load balancer", "The ingress certificate expires every ninety days and renews through the ACME job.", "We moved TLS termination from nginx to the cloud load balancer last spring."},
        {"what should I cook for a vegetarian dinner party", "Roasted aubergine with tahini and pomegranate went down well with the guests.", "She prefers lentil stew over pasta when friends come round for dinner."},
        {"when is the flight to Lisbon", "The TAP flight leaves Heathrow at 7:40 on Friday morning.", "We booked a small apartment near the Alfama district for the week."},
        {"who won the cup final", "The home side scored twice in extra time to lift the trophy.", "Their goalkeeper saved a penalty in the semi-final shootout."},
        {"how much did we spend on the mortgage this year", "Monthly repayments rose after the fixed rate ended in March.", "The bank offered a five-year deal at a slightly lower rate."},
        {"what did the doctor say about my knee", "The physiotherapist recommended squats and cycling to strengthen the joint.", "An MRI showed a small tear in the meniscus but no surgery is needed."},
        {"which guitar should I buy for a beginner", "A nylon-string classical guitar is gentler on new fingers.", "He practises chords for twenty minutes every evening after school."},
        {"why does the build fail on the CI server", "The Maven build breaks because the surefire plugin version is not pinned.", "Tests pass locally but the runner lacks the native library for SQLite."},
        {"how often should I water the tomato plants", "Tomatoes in pots need water every morning during a heatwave.", "The greenhouse seedlings were moved outside after the last frost."},
        {"what is our policy on remote work", "Staff may work from home three days a week with their manager's agreement.", "The office is open on Tuesdays and Thursdays for team meetings."},
        {"where did grandma grow up", "She spent her childhood on a farm outside a small village in the hills.", "Her family moved to the city when she was twelve years old."},
        {"what painting style does she like", "She loves impressionist landscapes with soft light and loose brushwork.", "Her studio is full of watercolours of the harbour at dawn."},
        {"how do I reset the router password", "Hold the reset button for ten seconds and the admin password returns to the label's.", "The wifi network name changed after the firmware update."},
        {"which book are we reading for the club", "This month the book club chose a novel about a lighthouse keeper.", "Last time we discussed a memoir about growing up in Lagos."},
        {"what vaccinations does the puppy need", "The vet scheduled the second parvovirus shot for next Wednesday.", "Our dog gets anxious at the clinic, so we bring treats."},
        {"how do we deploy the payments service", "Payments deploy through a blue-green switch after the canary passes.", "The release checklist requires a database migration dry run first."},
    };

    private final double unrelatedCosine;

    private CalibratedEmbedder(Embedder model, double unrelatedCosine) {
        super(model);
        this.unrelatedCosine = unrelatedCosine;
    }

    /**
     * {@code model} with its unrelated cosine measured now (48 embeddings). A model that fails the
     * measurement (an endpoint that refuses a batch, say) is kept with 0, and the failure logged: recall
     * then judges its cosines raw, as before this scale existed.
     */
    public static CalibratedEmbedder measure(Embedder model) {
        Objects.requireNonNull(model, "model");
        if (model instanceof CalibratedEmbedder c) return c;
        double u;
        try {
            u = unrelatedCosineOf(model);
        } catch (RuntimeException e) {
            log.warn("could not measure {}'s cosine for unrelated texts ({}); its similarities are used unscaled",
                    model.modelId(), e.getMessage());
            u = 0;
        }
        log.info("embedder {}: unrelated texts score cosine {}", model.modelId(), String.format(java.util.Locale.ROOT, "%.3f", u));
        return new CalibratedEmbedder(model, u);
    }

    /** The median cosine of the probe set's unrelated (question, statement) pairs; never negative. */
    static double unrelatedCosineOf(Embedder model) {
        List<String> statements = new ArrayList<>();
        for (String[] p : PROBES) {
            statements.add(p[1]);
            statements.add(p[2]);
        }
        List<float[]> said = model.embedAll(statements);
        List<Double> unrelated = new ArrayList<>();
        for (int i = 0; i < PROBES.length; i++) {
            float[] q = model.embedQuery(PROBES[i][0]);
            for (int j = 0; j < said.size(); j++) {
                if (j / 2 != i) unrelated.add(cosine(q, said.get(j)));
            }
        }
        unrelated.sort(null);
        double median = (unrelated.get(unrelated.size() / 2 - 1) + unrelated.get(unrelated.size() / 2)) / 2;
        return Math.max(0, median);
    }

    private static double cosine(float[] a, float[] b) {
        double dot = 0, na = 0, nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return na == 0 || nb == 0 ? 0 : dot / Math.sqrt(na * nb);
    }

    @Override
    public double unrelatedCosine() {
        return unrelatedCosine;
    }






}
