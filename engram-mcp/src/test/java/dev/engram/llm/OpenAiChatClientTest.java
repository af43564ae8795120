package dev.engram.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.mcp.json.JsonText;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OpenAiChatClientTest {
    private final JsonText json = JsonText.standard();

    @Test
    void sendsModelMessagesAndLimitsAndReturnsTheFirstChoice() throws Exception {
        try (var fake = FakeChatEndpoint.answering(body -> "hello back")) {
            var client = new OpenAiChatClient(new LlmConfig(URI.create(fake.baseUrl()), "tiny", "sk-secret", null), json);
            assertEquals("hello back", client.complete(new ChatPrompt("be brief", "hello", 0.1, 200, null)));
            Map<String, Object> sent = json.readObject(fake.bodies.get(0));
            assertEquals("tiny", sent.get("model"));
            assertEquals(200, ((Number) sent.get("max_tokens")).intValue());
            assertEquals(0.1, ((Number) sent.get("temperature")).doubleValue(), 1e-9);
            assertEquals(List.of(Map.of("role", "system", "content", "be brief"), Map.of("role", "user", "content", "hello")),
                    sent.get("messages"));
            assertEquals("Bearer sk-secret", fake.authorizations.get(0));
        }
    }

    @Test
    void noKeyMeansNoAuthorizationHeader() throws Exception {
        try (var fake = FakeChatEndpoint.answering(body -> "ok")) {
            var client = new OpenAiChatClient(new LlmConfig(URI.create(fake.baseUrl() + "/"), "m", null, null), json);
            assertEquals("ok", client.complete(ChatPrompt.of(null, "hi", 5)));
            assertEquals("null", fake.authorizations.get(0));
            assertFalse(fake.bodies.get(0).contains("system"), "no system message when none is given");
        }
    }

    @Test
    void failuresNameTheEndpointAndNeverTheKey() throws Exception {
        try (var fake = FakeChatEndpoint.raw(body -> new FakeChatEndpoint.Reply(401, "{\"error\":\"bad key\"}", 0))) {
            var client = new OpenAiChatClient(new LlmConfig(URI.create(fake.baseUrl()), "m", "sk-secret", null), json);
            var e = assertThrows(LlmException.class, () -> client.complete(ChatPrompt.of(null, "hi", 5)));
            assertTrue(e.getMessage().contains("rejected the API key") && e.getMessage().contains(fake.baseUrl()), e.getMessage());
            assertFalse(e.getMessage().contains("sk-secret"));
        }
        try (var fake = FakeChatEndpoint.raw(body -> new FakeChatEndpoint.Reply(500, "overloaded", 0))) {
            var client = new OpenAiChatClient(new LlmConfig(URI.create(fake.baseUrl()), "m", null, null), json);
            var e = assertThrows(LlmException.class, () -> client.complete(ChatPrompt.of(null, "hi", 5)));
            assertTrue(e.getMessage().contains("HTTP 500") && e.getMessage().contains("overloaded"), e.getMessage());
        }
        try (var fake = FakeChatEndpoint.raw(body -> new FakeChatEndpoint.Reply(200, "{\"choices\":[]}", 0))) {
            var client = new OpenAiChatClient(new LlmConfig(URI.create(fake.baseUrl()), "m", null, null), json);
            var e = assertThrows(LlmException.class, () -> client.complete(ChatPrompt.of(null, "hi", 5)));
            assertTrue(e.getMessage().contains("choices[0].message.content"), e.getMessage());
        }
    }

    @Test
    void aSlowEndpointTimesOutWithinThePromptsTimeout() throws Exception {
        try (var fake = FakeChatEndpoint.raw(body -> new FakeChatEndpoint.Reply(200, FakeChatEndpoint.completion("late"), 2000))) {
            var client = new OpenAiChatClient(new LlmConfig(URI.create(fake.baseUrl()), "m", null, null), json);
            long start = System.nanoTime();
            var e = assertThrows(LlmException.class,
                    () -> client.complete(ChatPrompt.of(null, "hi", 5).withTimeout(Duration.ofMillis(200))));
            assertTrue(Duration.ofNanos(System.nanoTime() - start).toMillis() < 1500, "waited past the timeout");
            assertTrue(e.getMessage().contains("did not answer within 200 ms"), e.getMessage());
        }
    }

    @Test
    void aClosedPortIsAConnectionFailure() {
        var client = new OpenAiChatClient(new LlmConfig(URI.create("http://127.0.0.1:1/v1"), "m", null, Duration.ofSeconds(2)), json);
        assertThrows(LlmException.class, () -> client.complete(ChatPrompt.of(null, "hi", 5)));
    }

    @Test
    void configurationReadsEngramNamesThenBrainToolsNames() {
        assertTrue(LlmConfig.fromEnvironment(Map.of()).isEmpty(), "nothing set: no model, no error");
        assertTrue(LlmConfig.fromEnvironment(Map.of(LlmConfig.MODEL, "m")).isEmpty(), "a model name alone configures nothing");

        LlmConfig groq = LlmConfig.fromEnvironment(Map.of(LlmConfig.GROQ_API_KEY, "gk")).orElseThrow();
        assertEquals(URI.create(LlmConfig.GROQ_BASE), groq.baseUrl());
        assertEquals(LlmConfig.DEFAULT_MODEL, groq.model());
        assertEquals("gk", groq.apiKey());

        LlmConfig brain = LlmConfig.fromEnvironment(Map.of(LlmConfig.AI_API_BASE, "http://h:1/v1", LlmConfig.AI_MODEL, "b",
                LlmConfig.AI_API_KEY, "ak", LlmConfig.GROQ_API_KEY, "gk")).orElseThrow();
        assertEquals("ak", brain.apiKey(), "AI_API_KEY before GROQ_API_KEY");
        assertEquals("b", brain.model());
        assertEquals(URI.create("http://h:1/v1/chat/completions"), brain.chatUri());

        LlmConfig engram = LlmConfig.fromEnvironment(Map.of(LlmConfig.URL, "http://e:2/v1", LlmConfig.MODEL, "e",
                LlmConfig.KEY, "ek", LlmConfig.AI_API_BASE, "http://h:1/v1", LlmConfig.AI_MODEL, "b",
                LlmConfig.TIMEOUT_MS, "1500")).orElseThrow();
        assertEquals(URI.create("http://e:2/v1"), engram.baseUrl());
        assertEquals("e", engram.model());
        assertEquals("ek", engram.apiKey());
        assertEquals(Duration.ofMillis(1500), engram.timeout());
        assertFalse(engram.toString().contains("ek"), "the key stays out of toString");
    }

    @Test
    void aMalformedSettingIsNamedAndMeansNoModelForTheServer() {
        var e = assertThrows(IllegalArgumentException.class, () -> LlmConfig.fromEnvironment(Map.of(LlmConfig.URL, "ftp://x")));
        assertTrue(e.getMessage().contains(LlmConfig.URL), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LlmConfig.fromEnvironment(Map.of(LlmConfig.URL, "http://x/v1",
                LlmConfig.TIMEOUT_MS, "soon")));
        assertTrue(ChatModels.fromEnvironment(Map.of(LlmConfig.URL, "ftp://x"), json).isEmpty());
        assertTrue(ChatModels.fromEnvironment(Map.of(LlmConfig.URL, "http://x/v1"), json).isPresent());
    }

    @Test
    void jsonIsFoundInsideFencesAndProse() {
        assertEquals(Map.of("a", 1), ChatModels.jsonObject("```json\n{\"a\": 1}\n```", json));
        assertEquals(Map.of("a", 1), ChatModels.jsonObject("Sure! Here it is: {\"a\": 1} Hope it helps.", json));
        assertThrows(LlmException.class, () -> ChatModels.jsonObject("no json here", json));
        assertThrows(LlmException.class, () -> ChatModels.jsonObject("{broken", json));
    }
}
