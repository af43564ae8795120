package dev.engram.proxy.compress;

import static dev.engram.proxy.compress.CompressFixtures.MAPPER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.engram.llm.LlmConfig;
import dev.engram.llm.OpenAiChatClient;
import dev.engram.mcp.json.JsonText;
import dev.engram.proxy.MutableClock;
import dev.engram.proxy.config.CompressionMode;
import dev.engram.proxy.config.LlmSummarySettings;
import dev.engram.proxy.surfacing.CircuitBreaker;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * llm_summary against a local OpenAI-compatible endpoint (the JDK's HttpServer): the summary and the
 * exact original one call away; a secret in the text means nothing is sent; a timeout, an error and an
 * open breaker fall back to the automatic choice and say so.
 */
class LlmSummaryTest {
    private static final JsonText JSON = JsonText.standard();
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final AtomicReference<String> answer = new AtomicReference<>("A short summary of the guide.");
    private final AtomicReference<Integer> status = new AtomicReference<>(200);
    private final AtomicReference<Long> delayMs = new AtomicReference<>(0L);
    private HttpServer server;
    private OriginalStore store;
    private Compressor compressor;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/chat/completions", ex -> {
            requests.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            try {
                Thread.sleep(delayMs.get());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] body = (status.get() == 200 ? JSON.write(Map.of("choices", List.of(Map.of("message",
                    Map.of("role", "assistant", "content", answer.get()))))) : "{\"error\": \"overloaded\"}")
                    .getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(status.get(), body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            } catch (IOException ignored) {
                // the client gave up (the timeout test)
            }
        });
        server.start();
        LlmSummarySettings settings = new LlmSummarySettings(Duration.ofMillis(2000), 300,
                LlmSummarySettings.DEFAULT_PROMPT, true, LlmSummarySettings.DEFAULT_MAX_INPUT_CHARS, 3, Duration.ofSeconds(60));
        LlmConfig config = new LlmConfig(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1"),
                "fake-model", null, settings.timeout());
        LlmSummary llm = new LlmSummary(new OpenAiChatClient(config, JSON), settings, new CircuitBreaker(clock, 3,
                Duration.ofSeconds(60)));
        store = CompressFixtures.store();
        compressor = new Compressor(MAPPER, store, new RetentionFloor(0.65), 4000, TocFormat.Choice.DEFAULT, llm);
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private CompressionOutcome summarize(String text) {
        return compressor.compress("s", "t", text, TextCleaner.clean(text), 4000, CompressionMode.LLM_SUMMARY);
    }

    @Test
    void theModelsSummaryWithTheExactOriginalOneCallAway() {
        String md = CompressFixtures.markdown(20, 5);
        CompressionOutcome out = summarize(md);
        assertEquals(CompressionMode.LLM_SUMMARY, out.strategy());
        assertEquals("llm_summary", out.path());
        assertTrue(out.text().startsWith("A short summary of the guide."), out.text());
        assertTrue(out.text().contains("llm_summary by fake-model"), out.text());
        assertTrue(out.text().contains("stm_proxy_read_more(key=\"" + out.key() + "\", offset=0)"), out.text());
        assertEquals(md, store.get(out.key()).orElseThrow().original());
        assertEquals(1, requests.size());
        assertTrue(requests.get(0).contains("Keep the summary under "), "STM's prompt with the room: " + requests.get(0));
        assertTrue(requests.get(0).contains("Paragraph 4 of section 19"), "the text itself was sent");
    }

    @Test
    void aSecretInTheTextIsNeverSentAndTheFooterSaysWhy() {
        String md = CompressFixtures.markdown(20, 5) + "\n\nconfig: api_key = \"abcd1234efgh5678ijkl\"\n";
        CompressionOutcome out = summarize(md);
        assertTrue(requests.isEmpty(), "nothing left the machine");
        assertTrue(out.path().startsWith("llm_summary→privacy_fallback→"), out.path());
        assertTrue(out.text().contains("[llm_summary not used: the text holds what looks like a credential (assigned_secret)"),
                out.text());
        assertFalse(out.text().contains("abcd1234efgh5678ijkl") && out.text().contains("llm_summary by"), out.text());
        assertTrue(out.text().length() <= 4000, out.text().length() + " chars");
        assertEquals(md, store.get(out.key()).orElseThrow().original(), "the exact original is stored");
    }

    @Test
    void aTimeoutFallsBackToTheAutomaticChoice() {
        delayMs.set(5000L);
        String md = CompressFixtures.markdown(20, 5);
        CompressionOutcome out = summarize(md);
        assertEquals(CompressionMode.HYBRID, out.strategy(), "AUTO's choice for this markdown");
        assertEquals("llm_summary→timeout_fallback→hybrid", out.path());
        assertTrue(out.text().contains("did not answer within 2000 ms"), out.text());
        assertTrue(out.text().length() <= 4000);
    }

    @Test
    void errorsOpenTheBreakerAndAnOpenBreakerSendsNothingUntilItsResetThenOneProbe() {
        status.set(503);
        String md = CompressFixtures.markdown(20, 5);
        for (int i = 0; i < 3; i++) {
            assertTrue(summarize(md).path().startsWith("llm_summary→llm_error_fallback→"), "failure " + i);
        }
        assertEquals(3, requests.size());
        CompressionOutcome open = summarize(md);
        assertTrue(open.path().startsWith("llm_summary→circuit_breaker_fallback→"), open.path());
        assertTrue(open.text().contains("the model failed 3 times in a row"), open.text());
        assertEquals(3, requests.size(), "an open breaker sends nothing");
        status.set(200);
        clock.advance(Duration.ofSeconds(61));
        assertEquals("llm_summary", summarize(md).path(), "half-open: one probe, and it succeeded");
        assertEquals(4, requests.size());
    }

    @Test
    void anEmptyOrOverlongAnswerFallsBack() {
        String md = CompressFixtures.markdown(20, 5);
        answer.set("   ");
        assertTrue(summarize(md).path().startsWith("llm_summary→llm_empty_fallback→"));
        answer.set("x".repeat(5000));
        CompressionOutcome out = summarize(md);
        assertTrue(out.path().startsWith("llm_summary→llm_overlength_fallback→"), out.path());
        assertTrue(out.text().length() <= 4000);
    }

    @Test
    void withoutAnEndpointLlmSummaryFallsBackAndSaysHowToConfigureIt() {
        Compressor plain = new Compressor(MAPPER, CompressFixtures.store(), new RetentionFloor(0.65), 4000);
        String md = CompressFixtures.markdown(20, 5);
        CompressionOutcome out = plain.compress("s", "t", md, TextCleaner.clean(md), 4000, CompressionMode.LLM_SUMMARY);
        assertEquals("llm_summary→unconfigured_fallback→hybrid", out.path());
        assertTrue(out.text().contains("ENGRAM_LLM_URL"), out.text());
    }

    @Test
    void settingsAreReadWithStmsNames() {
        LlmSummarySettings s = LlmSummarySettings.fromEnv(Map.of("MEMTOMEM_STM_LLM__MAX_TOKENS", "200",
                "ENGRAM_PROXY_LLM__LLM_TIMEOUT_SECONDS", "2.5", "ENGRAM_PROXY_LLM__PRIVACY_SCAN_ENABLED", "false"));
        assertEquals(200, s.maxTokens());
        assertEquals(Duration.ofMillis(2500), s.timeout());
        assertFalse(s.privacyScan());
        assertTrue(s.endpoint(Map.of()).isEmpty(), "no endpoint, no model");
        LlmConfig c = s.endpoint(Map.of("ENGRAM_PROXY_LLM__BASE_URL", "http://127.0.0.1:11434/v1",
                "ENGRAM_PROXY_LLM__MODEL", "qwen3:4b")).orElseThrow();
        assertEquals("qwen3:4b", c.model());
        assertEquals(Duration.ofMillis(2500), c.timeout());
        assertEquals("http://127.0.0.1:9/v1", s.endpoint(Map.of("ENGRAM_LLM_URL", "http://127.0.0.1:9/v1")).orElseThrow()
                .baseUrl().toString());
    }
}
