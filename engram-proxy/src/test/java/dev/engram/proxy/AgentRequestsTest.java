package dev.engram.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCNotification;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCRequest;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The agent's cancels reach the call they name; a call to a tool that is gone gets an error result; list_changed is sent once. */
class AgentRequestsTest {
    private final AgentRequests requests = new AgentRequests(Set.of("stm_proxy_read_more"));
    private final List<JSONRPCMessage> replies = new ArrayList<>();
    private final List<String> notified = new ArrayList<>();

    AgentRequestsTest() {
        requests.serving(name -> name.equals("fs__read"), notified::add);
    }

    private static JSONRPCRequest call(Object id, String name, Map<String, Object> meta) {
        Map<String, Object> params = new java.util.LinkedHashMap<>(Map.of("name", name, "arguments", Map.of("path", "/x")));
        if (meta != null) params.put("_meta", meta);
        return new JSONRPCRequest(McpSchema.JSONRPC_VERSION, McpSchema.METHOD_TOOLS_CALL, id, params);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> meta(JSONRPCMessage m) {
        return (Map<String, Object>) ((Map<String, Object>) ((JSONRPCRequest) m).params()).get("_meta");
    }

    @Test
    void aCancelCompletesTheCallWithTheSameIdAndIsNotPassedToTheSdk() {
        JSONRPCMessage tagged = requests.inbound(call(7, "fs__read", Map.of("progressToken", "p1")), replies::add);
        Map<String, Object> meta = meta(tagged);
        String tag = AgentRequests.tag(meta);
        assertEquals(Map.of("progressToken", "p1"), AgentRequests.untagged(meta), "the upstream gets the agent's _meta as sent");
        CompletableFuture<String> cancellation = requests.cancellation(tag);
        assertFalse(cancellation.isDone());
        // "7" is another request than 7
        assertNull(requests.inbound(new JSONRPCNotification(McpSchema.JSONRPC_VERSION, "notifications/cancelled",
                Map.of("requestId", "7")), replies::add));
        assertFalse(cancellation.isDone());
        assertNull(requests.inbound(new JSONRPCNotification(McpSchema.JSONRPC_VERSION, "notifications/cancelled",
                Map.of("requestId", 7, "reason", "user stopped it")), replies::add));
        assertEquals("user stopped it", cancellation.join());
        requests.finished(tag);
        assertNull(requests.cancellation(tag));
        assertTrue(replies.isEmpty());
    }

    @Test
    void aCallToAToolThatIsNotOfferedGetsAnErrorResultNamingItNotTheSdksProtocolError() {
        assertNull(requests.inbound(call(3, "bad__nope", null), replies::add));
        JSONRPCResponse r = (JSONRPCResponse) replies.get(0);
        assertEquals(3, r.id());
        assertNull(r.error());
        CallToolResult result = (CallToolResult) r.result();
        assertTrue(result.isError());
        String text = ((McpSchema.TextContent) result.content().get(0)).text();
        assertTrue(text.contains("'bad__nope'") && text.contains("list the tools again"), text);
    }

    @Test
    void theProxysOwnToolsAndOtherMessagesPassUntouched() {
        JSONRPCRequest own = call(1, "stm_proxy_read_more", null);
        assertSame(own, requests.inbound(own, replies::add));
        JSONRPCRequest list = new JSONRPCRequest(McpSchema.JSONRPC_VERSION, McpSchema.METHOD_TOOLS_LIST, 2, Map.of());
        assertSame(list, requests.inbound(list, replies::add));
    }

    @Test
    void aBatchOfChangesSendsOneListChangedOfEachKind() {
        requests.batch(() -> {
            for (int i = 0; i < 13; i++) assertFalse(requests.sends(McpSchema.METHOD_NOTIFICATION_TOOLS_LIST_CHANGED));
            assertFalse(requests.sends(McpSchema.METHOD_NOTIFICATION_PROMPTS_LIST_CHANGED));
            assertTrue(requests.sends("notifications/message"));
        });
        assertEquals(Set.of(McpSchema.METHOD_NOTIFICATION_TOOLS_LIST_CHANGED, McpSchema.METHOD_NOTIFICATION_PROMPTS_LIST_CHANGED),
                Set.copyOf(notified));
        assertEquals(2, notified.size());
        assertTrue(requests.sends(McpSchema.METHOD_NOTIFICATION_TOOLS_LIST_CHANGED), "outside a batch nothing is held");
    }
}
