package dev.engram.proxy.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.UnresolvedAddressException;
import java.util.concurrent.CompletionException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;

/** Review 2, finding 12: an error without a message says what happened, not a bare class name. */
class SseStreamWatchTest {
    private static Throwable wrapped(Throwable root) {
        return new CompletionException(new IOException(null, root));
    }

    @Test
    void commonCausesAreWords() {
        assertEquals("unknown host", SseStreamWatch.reason(wrapped(new UnresolvedAddressException())));
        assertEquals("unknown host: h.invalid", SseStreamWatch.reason(wrapped(new UnknownHostException("h.invalid"))));
        assertEquals("connection refused", SseStreamWatch.reason(wrapped(new ConnectException())));
        assertEquals("connection refused", SseStreamWatch.reason(new ConnectException("Connection refused")));
        assertEquals("the connection was closed", SseStreamWatch.reason(wrapped(new ClosedChannelException())));
        assertEquals("TLS handshake failed: PKIX path building failed",
                SseStreamWatch.reason(wrapped(new SSLHandshakeException("PKIX path building failed"))));
        assertEquals("timed out", SseStreamWatch.reason(wrapped(new HttpConnectTimeoutException("HTTP connect timed out"))));
        assertEquals("it said no", SseStreamWatch.reason(wrapped(new IllegalStateException("it said no"))));
        assertEquals("IllegalStateException", SseStreamWatch.reason(new IllegalStateException()));
    }
}
