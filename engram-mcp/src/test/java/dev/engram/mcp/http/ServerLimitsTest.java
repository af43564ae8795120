package dev.engram.mcp.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.EngramUserException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ServerLimitsTest {
    @Test
    void theDefaultsAreDocumentedOnes() {
        assertEquals(50, ServerLimits.DEFAULT.ratePerSecond());
        assertEquals(100, ServerLimits.DEFAULT.burst());
        assertEquals(4 * 1024 * 1024, ServerLimits.DEFAULT.maxBodyBytes());
        assertEquals(Duration.ofSeconds(10), ServerLimits.DEFAULT.shutdownGrace());
        assertTrue(ServerLimits.DEFAULT.rateLimited());
        assertFalse(ServerLimits.DEFAULT.withRate(0, 0).rateLimited(), "a rate of 0 turns the limit off");
    }

    @Test
    void badValuesAreRefusedWithWhatToSend() {
        assertTrue(assertThrows(EngramUserException.class, () -> ServerLimits.DEFAULT.withRate(-1, 10)).getMessage()
                .contains(">= 0"));
        assertTrue(assertThrows(EngramUserException.class, () -> ServerLimits.DEFAULT.withRate(5, 0)).getMessage()
                .contains("burst must be at least 1"));
        assertTrue(assertThrows(EngramUserException.class, () -> ServerLimits.DEFAULT.withMaxBodyBytes(10)).getMessage()
                .contains("at least 1024 bytes"));
        assertTrue(assertThrows(EngramUserException.class, () -> ServerLimits.DEFAULT.withShutdownGrace(Duration.ofSeconds(-1)))
                .getMessage().contains("must not be negative"));
    }
}
