package dev.engram.proxy.compress;

import dev.engram.analysis.TextCut;
import dev.engram.llm.ChatModel;
import dev.engram.llm.ChatPrompt;
import dev.engram.llm.LlmException;
import dev.engram.proxy.config.CompressionMode;
import dev.engram.proxy.config.LlmSummarySettings;
import dev.engram.proxy.surfacing.CircuitBreaker;
import dev.engram.proxy.upstream.CredentialPatterns;
import java.net.http.HttpTimeoutException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * memtomem-stm's {@code llm_summary}: a chat model's summary of the result, with the exact original one
 * {@code stm_proxy_read_more} away. Before anything leaves the machine the text that would be sent is
 * scanned for credentials ({@link CredentialPatterns}, STM's list); a match means nothing is sent. A
 * timeout, an error, an empty or over-long answer, or an open {@link CircuitBreaker} (STM: 3 failures,
 * 60 s) also mean no summary: {@link Compressor} then makes the automatic choice's view and says why in a
 * note, the path labelled as STM labels it ({@code llm_summary→privacy_fallback}, {@code …timeout…},
 * {@code circuit_breaker}, {@code llm_error}, {@code llm_overlength}, {@code llm_empty}, and Engram's
 * {@code unconfigured} when no endpoint is set). Thread-safe.
 */
public final class LlmSummary {
    private static final Logger log = LoggerFactory.getLogger(LlmSummary.class);
    /** Less room than this is not worth a model call. */
    static final int MIN_ROOM = 200;

    private final ChatModel model;
    private final LlmSummarySettings settings;
    private final CircuitBreaker breaker;

    public LlmSummary(ChatModel model, LlmSummarySettings settings, CircuitBreaker breaker) {
        this.model = model;
        this.settings = settings;
        this.breaker = breaker;
    }

    /** A summary, or the reason there is none (STM's fallback label) and a sentence for the agent. */
    public record Attempt(Compressed summary, String fallback, String why) {
        static Attempt fallback(String reason, String why) {
            return new Attempt(null, reason, why);
        }
    }

    /** Said when {@code llm_summary} is asked for and no chat endpoint is set. */
    public static Attempt unconfigured() {
        return Attempt.fallback("unconfigured", "no chat endpoint is configured (ENGRAM_LLM_URL or"
                + " ENGRAM_PROXY_LLM__BASE_URL)");
    }

    public Attempt summarize(CompressionInput in) {
        String text = in.cleaned();
        boolean head = text.length() > settings.maxInputChars();
        String sent = head ? TextCut.head(text, settings.maxInputChars()) : text;
        String footer = Footers.original(in.key(), in.raw().length(), "llm_summary by " + model.describe()
                + " of " + (head ? "the first " + sent.length() + " of " + text.length() + " chars" : "the whole text")
                + ": a model's summary, check details in the original");
        int room = in.budget() - footer.length();
        if (room < MIN_ROOM) return Attempt.fallback("budget", "the budget leaves no room for a summary");
        if (settings.privacyScan()) {
            Optional<String> secret = CredentialPatterns.find(sent);
            if (secret.isPresent()) {
                log.info("llm_summary: the text holds a {}; nothing sent to {}", secret.get(), model.describe());
                return Attempt.fallback("privacy", "the text holds what looks like a credential (" + secret.get()
                        + "), so nothing was sent to the model");
            }
        }
        if (!breaker.allow()) {
            return Attempt.fallback("circuit_breaker", "the model failed " + settings.circuitMaxFailures()
                    + " times in a row; it is tried again " + settings.circuitReset().toSeconds() + " s after the last failure");
        }
        String answer;
        try {
            String system = settings.systemPrompt().replace("{max_chars}", Integer.toString(room));
            answer = model.complete(new ChatPrompt(system, sent, 0.1, settings.maxTokens(), settings.timeout()));
        } catch (LlmException e) {
            breaker.failure();
            boolean timeout = e.getCause() instanceof HttpTimeoutException;
            log.warn("llm_summary failed, falling back: {}", e.getMessage());
            return timeout
                    ? Attempt.fallback("timeout", "the model did not answer within " + settings.timeout().toMillis() + " ms")
                    : Attempt.fallback("llm_error", "the model call failed: " + e.getMessage());
        } catch (RuntimeException e) {
            breaker.failure();
            log.warn("llm_summary failed, falling back", e);
            return Attempt.fallback("llm_error", "the model call failed (" + e.getClass().getSimpleName() + ")");
        }
        String summary = answer == null ? "" : answer.strip();
        if (summary.isEmpty()) {
            breaker.failure();
            return Attempt.fallback("llm_empty", "the model answered with nothing");
        }
        breaker.success();
        if (summary.length() > room) {
            return Attempt.fallback("llm_overlength", "the model's summary (" + summary.length()
                    + " chars) is over the " + room + " chars it had");
        }
        // a summary addresses no unit of the original on its own: the original is one call away
        return new Attempt(new Compressed(summary + footer, CompressionMode.LLM_SUMMARY, 0.0), null, null);
    }
}
