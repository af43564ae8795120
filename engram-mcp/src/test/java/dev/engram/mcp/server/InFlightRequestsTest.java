package dev.engram.mcp.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class InFlightRequestsTest {
    @Test
    void aRequestHasAMethodAndAnId() {
        assertEquals(Boolean.TRUE, InFlightRequests.requestOrResponse(
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"recall\",\"arguments\":{\"id\":1}}}"));
        assertEquals(Boolean.TRUE, InFlightRequests.requestOrResponse(
                "{\"method\":\"ping\",\"params\":{},\"id\":\"a\"}"), "any field order");
    }

    @Test
    void aResponseHasAnIdAndNoMethodAtTheTopLevel() {
        assertEquals(Boolean.FALSE, InFlightRequests.requestOrResponse(
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"x\"}],\"method\":\"nested\"}}"));
        assertEquals(Boolean.FALSE, InFlightRequests.requestOrResponse(
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32602,\"message\":\"bad\"}}"));
    }

    @Test
    void notificationsNullIdsAndNonJsonAreNeither() {
        assertNull(InFlightRequests.requestOrResponse("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"));
        assertNull(InFlightRequests.requestOrResponse("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700}}"));
        assertNull(InFlightRequests.requestOrResponse("[1,2]"));
        assertNull(InFlightRequests.requestOrResponse("not json {"));
        assertNull(InFlightRequests.requestOrResponse("{\"id\":1,\"method\":"));
    }
}
