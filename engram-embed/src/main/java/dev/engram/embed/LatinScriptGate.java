package dev.engram.embed;

import dev.engram.spi.Embedder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;

/**
 * An English model's guard against text it cannot read. e5-small-v2's vocabulary has almost no Hangul,
 * kana or Han: a Korean memory becomes a run of unknown tokens whose vector sits close to everything
 * (cosine 0.81 to an unrelated English question, above the 0.79 of that question's real answer), so it
 * would crowd every recall. A text whose letters are mostly not Latin therefore gets a direction of its
 * own instead: a unit vector drawn from its text's hash, which matches nothing (random directions in 384
 * dimensions are all but orthogonal) and is the same for the same text, across processes. Such memories
 * and queries are found by the lexical layer, which reads Korean (Lucene's nori) and the other scripts;
 * a model that reads them (a multilingual ONNX model, {@code ENGRAM_EMBEDDER=onnx}) is not gated.
 */
final class LatinScriptGate extends ForwardingEmbedder {
    /** Below this share of Latin letters a text is not English-readable. */
    static final double MIN_LATIN_SHARE = 0.5;

    LatinScriptGate(Embedder model) {
        super(model);
    }

    /** Whether at least half of the text's letters are Latin; a text without letters (numbers, symbols) is. */
    static boolean readable(String text) {
        int letters = 0, latin = 0;
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            if (!Character.isLetter(c)) continue;
            letters++;
            if (Character.UnicodeScript.of(c) == Character.UnicodeScript.LATIN) latin++;
        }
        return letters == 0 || latin >= MIN_LATIN_SHARE * letters;
    }

    /** A unit vector determined by the text alone (its UTF-8 bytes), in no direction the model uses more than another. */
    float[] ownDirection(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        long seed = 1125899906842597L;
        for (byte b : bytes) seed = 31 * seed + b;
        SplittableRandom random = new SplittableRandom(seed);
        float[] v = new float[model.dimensions()];
        double norm = 0;
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) random.nextGaussian();
            norm += v[i] * v[i];
        }
        for (int i = 0; i < v.length; i++) v[i] /= (float) Math.sqrt(norm);
        return v;
    }

    @Override
    public float[] embed(String text) {
        return readable(text) ? model.embed(text) : ownDirection(text);
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
        if (texts.stream().allMatch(LatinScriptGate::readable)) return model.embedAll(texts);
        List<String> readable = texts.stream().filter(LatinScriptGate::readable).toList();
        java.util.Iterator<float[]> embedded = (readable.isEmpty() ? List.<float[]>of() : model.embedAll(readable)).iterator();
        return texts.stream().map(t -> readable(t) ? embedded.next() : ownDirection(t)).toList();
    }

    @Override
    public float[] embedQuery(String query) {
        return readable(query) ? model.embedQuery(query) : ownDirection(query);
    }




}
