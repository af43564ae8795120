package dev.engram.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.EmbeddingException;
import dev.engram.spi.Embedder;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The models shipped in the jar, loaded as the server loads them, and the scale each is measured on. */
class BundledModelTest {

    @Test
    void e5LoadsWithItsPrefixesAndIsMeasuredOnItsOwnScale() {
        LazyEmbedder e5 = LazyEmbedder.bundled(BundledModel.E5_SMALL_V2, Duration.ZERO);
        assertEquals("e5-small-v2-q+passage:passage:", e5.modelId());
        assertEquals(0.0, e5.unrelatedCosine(), "nothing is known before the model loads");
        assertTrue(e5.awaitReady(Duration.ofMinutes(2)), "e5 did not load: " + e5.failure());
        float[] v = e5.embed("Redis returned NOAUTH");
        assertEquals(384, v.length);
        assertEquals(1.0, VectorMath.norm(v), 1e-4);
        // e5 scores unrelated texts around 0.7 (measured 0.71): every raw threshold chosen on MiniLM would pass them
        double u = e5.unrelatedCosine();
        assertTrue(u > 0.6 && u < 0.8, "e5's unrelated cosine " + u);
        double related = VectorMath.dot(e5.embedQuery("database connection timed out"),
                e5.embed("Postgres pool exhausted, queries time out"));
        double unrelated = VectorMath.dot(e5.embedQuery("database connection timed out"), e5.embed("Meeting moved to Tuesday"));
        assertTrue(related > unrelated, related + " vs " + unrelated);
        assertTrue(unrelated > 0.6, "raw cosine of unrelated texts " + unrelated);
    }

    @Test
    void e5GivesTextItCannotReadADirectionThatMatchesNothing() {
        LazyEmbedder e5 = LazyEmbedder.bundled(BundledModel.E5_SMALL_V2, Duration.ZERO);
        assertTrue(e5.awaitReady(Duration.ofMinutes(2)), "e5 did not load: " + e5.failure());
        float[] question = e5.embedQuery("why is the purchase flow spec unreliable");
        float[] answer = e5.embed("The checkout integration test fails intermittently because it depends on wall-clock time.");
        float[] korean = e5.embed("배포 전에 스테이징 환경에서 통합 테스트를 반드시 실행한다.");
        // ungated, e5 put this Korean sentence at 0.81 to the question, above the answer's 0.79
        assertTrue(VectorMath.dot(question, korean) < 0.2, "Korean against an English question: " + VectorMath.dot(question, korean));
        assertTrue(VectorMath.dot(question, answer) > 0.75);
        assertEquals(1.0, VectorMath.norm(korean), 1e-4);
        assertTrue(java.util.Arrays.equals(korean, e5.embedAll(List.of("x", "배포 전에 스테이징 환경에서 통합 테스트를 반드시 실행한다.")).get(1)),
                "the same text gets the same direction, alone or in a batch");
        float[] otherKorean = e5.embed("운영 서버의 관리자 비밀번호는 매달 첫째 주 월요일에 변경한다.");
        assertTrue(Math.abs(VectorMath.dot(korean, otherKorean)) < 0.3, "two unreadable texts are not near-duplicates");
    }

    @Test
    void mostlyLatinTextIsReadable() {
        assertTrue(LatinScriptGate.readable("Deploy the café service"));
        assertTrue(LatinScriptGate.readable("v1.2.3 -> 42"));
        assertTrue(LatinScriptGate.readable("Redis 설정 uses port six three seven nine"));
        assertFalse(LatinScriptGate.readable("배포 전에 테스트"));
        assertFalse(LatinScriptGate.readable("データベースの接続"));
        assertFalse(LatinScriptGate.readable("Ошибка подключения к базе"));
    }

    @Test
    void miniLmKeepsItsIdAndScoresUnrelatedTextsNearZero() {
        LazyEmbedder minilm = LazyEmbedder.minilm();
        assertEquals(MiniLmEmbedder.MODEL_ID, minilm.modelId(), "stores written before e5 keep their vectors");
        assertTrue(minilm.awaitReady(Duration.ofMinutes(2)), "MiniLM did not load: " + minilm.failure());
        double u = minilm.unrelatedCosine();
        assertTrue(u >= 0 && u < 0.1, "MiniLM's unrelated cosine " + u);
    }

    @Test
    void settingsNameTheBundledModels() {
        assertEquals(Optional.of(BundledModel.E5_SMALL_V2), BundledModel.bySetting(" E5 "));
        assertEquals(Optional.of(BundledModel.MINILM), BundledModel.bySetting("minilm"));
        assertEquals(Optional.empty(), BundledModel.bySetting("bert"));
    }

    @Test
    void aModelThatCannotBeMeasuredIsKeptUnscaled() {
        Embedder refusesBatches = new Embedder() {
            @Override
            public String modelId() {
                return "flaky";
            }

            @Override
            public int dimensions() {
                return 2;
            }

            @Override
            public float[] embed(String text) {
                return new float[] {1, 0};
            }

            @Override
            public List<float[]> embedAll(List<String> texts) {
                throw new EmbeddingException("batch refused");
            }
        };
        CalibratedEmbedder c = CalibratedEmbedder.measure(refusesBatches);
        assertEquals(0.0, c.unrelatedCosine());
        assertEquals("flaky", c.modelId());
    }

    @Test
    void theMeasureIsTheMedianOfTheUnrelatedPairs() {
        // every question and statement the same vector: unrelated pairs score 1, and so does their median
        Embedder constant = new Embedder() {
            @Override
            public String modelId() {
                return "constant";
            }

            @Override
            public int dimensions() {
                return 2;
            }

            @Override
            public float[] embed(String text) {
                return new float[] {0.6f, 0.8f};
            }

            @Override
            public List<float[]> embedAll(List<String> texts) {
                return texts.stream().map(this::embed).toList();
            }
        };
        assertEquals(1.0, CalibratedEmbedder.unrelatedCosineOf(constant), 1e-6);
    }
}
