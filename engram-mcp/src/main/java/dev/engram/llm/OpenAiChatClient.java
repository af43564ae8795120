package dev.engram.llm;

import dev.engram.mcp.json.JsonText;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code POST {base}/chat/completions} on any OpenAI-compatible server (OpenAI, Groq, Ollama, vLLM,
 * LM Studio) with a bearer key when one is set; returns {@code choices[0].message.content}. Every
 * failure is an {@link LlmException} naming the URL and what to check; the key never appears.
 */
public final class OpenAiChatClient implements ChatModel {
    private static final int MAX_BODY_IN_MESSAGE = 300;

    private final LlmConfig config;
    private final HttpClient http;
    private final JsonText json;

    public OpenAiChatClient(LlmConfig config, JsonText json) {
        this(config, json, HttpClient.newBuilder().connectTimeout(config.timeout()).build());
    }

    OpenAiChatClient(LlmConfig config, JsonText json, HttpClient http) {
        this.config = Objects.requireNonNull(config, "config");
        this.json = Objects.requireNonNull(json, "json");
        this.http = Objects.requireNonNull(http, "http");
    }

    @Override
    public String describe() {
        return config.model() + " at " + config.baseUrl();
    }

    @Override
    public String complete(ChatPrompt prompt) {
        List<Map<String, Object>> messages = new ArrayList<>();
        if (prompt.system() != null && !prompt.system().isBlank()) messages.add(Map.of("role", "system", "content", prompt.system()));
        messages.add(Map.of("role", "user", "content", prompt.user()));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("model", config.model());
        body.put("messages", messages);
        body.put("temperature", prompt.temperature());
        body.put("max_tokens", prompt.maxTokens());
        Duration timeout = prompt.timeout() == null ? config.timeout() : prompt.timeout();
        HttpRequest.Builder request = HttpRequest.newBuilder(config.chatUri())
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json.write(body)));
        if (config.apiKey() != null) request.header("Authorization", "Bearer " + config.apiKey());
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException e) {
            throw new LlmException("chat endpoint " + config.chatUri() + " did not answer within " + timeout.toMillis()
                    + " ms", e);
        } catch (ConnectException e) {
            throw new LlmException("cannot connect to chat endpoint " + config.chatUri()
                    + "; check the URL and that the server is running", e);
        } catch (IOException e) {
            throw new LlmException("chat request to " + config.chatUri() + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LlmException("interrupted while waiting for " + config.chatUri(), e);
        }
        return content(response);
    }

    private String content(HttpResponse<String> response) {
        int status = response.statusCode();
        if (status == 401 || status == 403) {
            throw new LlmException("chat endpoint " + config.chatUri() + " rejected the API key (HTTP " + status + ")"
                    + (config.apiKey() == null ? "; no key is configured (ENGRAM_LLM_KEY)" : "; check ENGRAM_LLM_KEY"));
        }
        if (status / 100 != 2) {
            throw new LlmException("chat endpoint " + config.chatUri() + " answered HTTP " + status + " for model '"
                    + config.model() + "': " + excerpt(response.body()));
        }
        Map<String, Object> answer;
        try {
            answer = json.readObject(response.body());
        } catch (IllegalArgumentException e) {
            throw new LlmException("chat endpoint " + config.chatUri() + " answered with invalid JSON: " + excerpt(response.body()), e);
        }
        if (answer.get("choices") instanceof List<?> choices && !choices.isEmpty()
                && choices.get(0) instanceof Map<?, ?> choice && choice.get("message") instanceof Map<?, ?> message
                && message.get("content") instanceof String text) {
            return text;
        }
        throw new LlmException("chat endpoint " + config.chatUri() + " answered without choices[0].message.content: "
                + excerpt(response.body()));
    }

    private static String excerpt(String body) {
        if (body == null || body.isBlank()) return "(empty body)";
        String flat = body.strip().replaceAll("\\s+", " ");
        return flat.length() <= MAX_BODY_IN_MESSAGE ? flat : flat.substring(0, MAX_BODY_IN_MESSAGE) + "…";
    }
}
