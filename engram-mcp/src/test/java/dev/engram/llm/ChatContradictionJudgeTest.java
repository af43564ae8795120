package dev.engram.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.Engine;
import dev.engram.engine.RememberCommand;
import dev.engram.engine.lifecycle.ConsolidationPolicy;
import dev.engram.engine.lifecycle.ContradictionJudge;
import dev.engram.engine.lifecycle.ContradictionStep;
import dev.engram.engine.lifecycle.MaintenanceContext;
import dev.engram.engine.lifecycle.StepReport;
import dev.engram.mcp.json.JsonText;
import dev.engram.memory.EdgeType;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import dev.engram.testing.MutableClock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The contradiction judge over a local OpenAI-compatible endpoint, alone and inside the contradictions step. */
class ChatContradictionJudgeTest {
    private final JsonText json = JsonText.standard();

    private ContradictionJudge judge(FakeChatEndpoint endpoint) {
        return ChatContradictionJudge.fromSettings(LlmConfig.fromEnvironment(endpoint.environment("judge-1")).orElseThrow()
                .toSettings(), json).orElseThrow();
    }

    @Test
    void readsTheModelsVerdictAndSendsBothStatements() throws Exception {
        try (FakeChatEndpoint endpoint = FakeChatEndpoint.answering(body -> body.contains("Kotlin")
                ? "```json\n{\"verdict\": \"contradiction\"}\n```" : "Sure: {\"verdict\":\"entailment\"}")) {
            ContradictionJudge judge = judge(endpoint);
            assertEquals(ContradictionJudge.Verdict.CONTRADICTION, judge.judge("The api is written in Kotlin", "The api is written in Go"));
            assertEquals(ContradictionJudge.Verdict.ENTAILMENT, judge.judge("Sessions live in Redis", "Sessions are kept in Redis"));
            assertTrue(endpoint.bodies.get(0).contains("Statement A (older): The api is written in Kotlin"), endpoint.bodies.get(0));
            assertTrue(endpoint.bodies.get(0).contains("judge-1"));
        }
    }

    @Test
    void anUnknownVerdictOrAFailingEndpointIsAnLlmException() throws Exception {
        try (FakeChatEndpoint endpoint = FakeChatEndpoint.answering(body -> "{\"verdict\": \"maybe\"}")) {
            LlmException e = assertThrows(LlmException.class, () -> judge(endpoint).judge("a", "b"));
            assertTrue(e.getMessage().contains("no known verdict"), e.getMessage());
        }
        try (FakeChatEndpoint endpoint = FakeChatEndpoint.raw(body -> new FakeChatEndpoint.Reply(500, "{}", 0))) {
            assertThrows(LlmException.class, () -> judge(endpoint).judge("a", "b"));
        }
        assertTrue(ChatContradictionJudge.fromSettings(Map.of(), json).isEmpty(), "no model configured: no judge");
    }

    @Test
    void theStepLinksWhatTheModelCallsAContradictionAndSkipsTheRest() throws Exception {
        MutableClock clock = MutableClock.at("2026-12-01T10:00:00Z");
        InMemoryMemoryStore store = new InMemoryMemoryStore();
        InMemorySearchIndex index = new InMemorySearchIndex(store);
        Engine engine = new Engine(store, index, clock);
        var kotlin = engine.remember(RememberCommand.builder("The billing api is written in Kotlin").key("k1").build()).memory();
        clock.advance(Duration.ofMinutes(1));
        var go = engine.remember(RememberCommand.builder("The billing api is written in Go").key("k2").build()).memory();
        try (FakeChatEndpoint endpoint = FakeChatEndpoint.answering(body -> "{\"verdict\": \"contradiction\"}")) {
            StepReport report = new ContradictionStep(ConsolidationPolicy.DEFAULT, judge(endpoint))
                    .run(new MaintenanceContext(store, index, null, clock.instant(), "default", false));
            assertEquals(1, report.changed(), report.toString());
            assertEquals(1, endpoint.bodies.size(), "one pair, one question");
            assertTrue(store.edges(go.id()).stream().anyMatch(e -> e.type() == EdgeType.CONTRADICTS && e.toId().equals(kotlin.id())));
            assertTrue(store.get(kotlin.id()).isPresent() && store.get(go.id()).isPresent(), "nothing deleted on a model's say-so");
        }
    }
}
