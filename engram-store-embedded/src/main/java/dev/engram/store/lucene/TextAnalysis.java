package dev.engram.store.lucene;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.DelegatingAnalyzerWrapper;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.cjk.CJKAnalyzer;
import org.apache.lucene.analysis.ko.KoreanAnalyzer;
import org.apache.lucene.analysis.ko.KoreanPartOfSpeechStopFilter;
import org.apache.lucene.analysis.ko.KoreanTokenizer;
import org.apache.lucene.analysis.miscellaneous.ASCIIFoldingFilter;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * The three analysers every text is indexed with, chosen by the field name's suffix. Standard alone
 * cannot match {@code 비밀번호} in {@code 비밀번호를}; Nori alone turns Hanja into Hangul readings and
 * mangles Japanese and Chinese; CJK bigrams cover Han and Kana (storage-and-embeddings §1.4).
 * Thread-safe: Lucene analysers reuse per-thread token streams.
 */
final class TextAnalysis implements AutoCloseable {
    /** Field-name suffixes, one per analyser. */
    static final String STANDARD = "std";
    static final String KOREAN = "ko";
    static final String CJK = "cjk";
    static final List<String> ANALYSERS = List.of(STANDARD, KOREAN, CJK);

    private final Analyzer standard = new FoldingStandardAnalyzer();
    // MIXED keeps the compound (데이터베이스) and its parts (데이터, 베이스), so both query forms match
    private final Analyzer korean = new KoreanAnalyzer(null, KoreanTokenizer.DecompoundMode.MIXED,
            KoreanPartOfSpeechStopFilter.DEFAULT_STOP_TAGS, false);
    private final Analyzer cjk = new CJKAnalyzer();
    private final Analyzer perField = new DelegatingAnalyzerWrapper(Analyzer.PER_FIELD_REUSE_STRATEGY) {
        @Override
        protected Analyzer getWrappedAnalyzer(String fieldName) {
            return analyserOf(fieldName);
        }
    };

    private Analyzer analyserOf(String field) {
        if (field.endsWith("_" + KOREAN)) return korean;
        if (field.endsWith("_" + CJK)) return cjk;
        return standard;
    }

    /** The analyser an IndexWriter uses: it picks by field name. */
    Analyzer indexAnalyzer() {
        return perField;
    }

    /** The distinct terms {@code text} yields in {@code field}, in order of appearance, at most {@code max}. */
    List<String> terms(String field, String text, int max) {
        Set<String> out = new LinkedHashSet<>();
        try (TokenStream ts = perField.tokenStream(field, text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken() && out.size() < max) out.add(term.toString());
            ts.end();
        } catch (IOException e) {
            throw new UncheckedIOException("analysing query text for " + field, e); // a StringReader cannot fail
        }
        return List.copyOf(out);
    }

    /**
     * Lucene's {@link StandardAnalyzer} (Unicode word breaks, lower case, no stop words) with accents folded to ASCII, on
     * both sides: {@code Café Müller} is found by {@code cafe muller} and by {@code café}, as people type names either
     * way (an outside probe found accented entity names unreachable by their own name; brain-tools' Elasticsearch
     * mapping folds them too). Hangul, Han and Kana have no ASCII form and pass unchanged.
     */
    static final class FoldingStandardAnalyzer extends Analyzer {
        @Override
        protected TokenStreamComponents createComponents(String fieldName) {
            StandardTokenizer source = new StandardTokenizer();
            return new TokenStreamComponents(source, new ASCIIFoldingFilter(new LowerCaseFilter(source)));
        }

        @Override
        protected TokenStream normalize(String fieldName, TokenStream in) {
            return new ASCIIFoldingFilter(new LowerCaseFilter(in));
        }
    }

    @Override
    public void close() {
        perField.close();
        standard.close();
        korean.close();
        cjk.close();
    }
}
