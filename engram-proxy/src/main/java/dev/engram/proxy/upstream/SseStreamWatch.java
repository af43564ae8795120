package dev.engram.proxy.upstream;

import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.UnresolvedAddressException;
import java.util.Locale;
import java.util.concurrent.CompletionException;
import javax.net.ssl.SSLException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * Tells when an SSE upstream's event stream ends. The SDK's SSE client reads answers from one long
 * GET and, when that stream ends (the server stopped, a proxy dropped it), tells no one: every call
 * after it waits out its timeout for an answer that cannot come. This watch sits in the HTTP client
 * the transport is built with and completes {@link #ended()} when the event stream's body completes
 * or fails, so a call in flight fails at once and the next call reconnects first, as with a stdio
 * upstream whose process exited.
 */
final class SseStreamWatch {
    private final CompletableFuture<String> ended = new CompletableFuture<>();

    /** Completes with the reason when the event stream is over; never before it was opened. */
    CompletableFuture<String> ended() {
        return ended;
    }

    /** An HTTP client builder whose clients report the event stream's end here. */
    HttpClient.Builder clientBuilder() {
        return new WatchingBuilder(HttpClient.newBuilder());
    }

    private static boolean isEventStream(HttpRequest request) {
        return "GET".equals(request.method())
                && request.headers().allValues("Accept").stream().anyMatch(v -> v.contains("text/event-stream"));
    }

    private static String hint(int status) {
        if (status == 401 || status == 403) return " (check its headers, e.g. the Authorization token)";
        if (status == 404 || status == 405) return " (is the URL its SSE stream, e.g. https://host/sse? A Streamable HTTP server needs --transport streamable_http)";
        return "";
    }

    /** A stream that could not be opened at all (refused, unknown host, TLS) ends before it began. */
    private <R> CompletableFuture<R> watchedOpen(CompletableFuture<R> response) {
        return response.whenComplete((r, e) -> {
            if (e == null) return;
            ended.complete("its event stream could not be opened (" + reason(e) + ")");
        });
    }

    /**
     * Why a connection failed, in words. Java's HTTP client often fails with exceptions that carry no
     * message (UnresolvedAddressException, ClosedChannelException, a bare ConnectException), wrapped
     * in CompletionException and IOException; a class name tells the user nothing, so the usual
     * causes found anywhere in the chain are named, and otherwise the deepest message is given.
     */
    static String reason(Throwable e) {
        String deepest = null;
        Throwable last = e;
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            last = t;
            String m = t.getMessage();
            if (t instanceof UnresolvedAddressException) return "unknown host";
            if (t instanceof UnknownHostException) return m == null ? "unknown host" : "unknown host: " + m;
            if (t instanceof ConnectException || (m != null && m.toLowerCase(Locale.ROOT).contains("connection refused"))) {
                return "connection refused";
            }
            if (t instanceof SSLException) return m == null ? "TLS handshake failed" : "TLS handshake failed: " + m;
            if (t instanceof HttpTimeoutException || t instanceof SocketTimeoutException) return "timed out";
            if (t instanceof ClosedChannelException || t instanceof EOFException) return "the connection was closed";
            if (m != null && !m.isBlank() && !(t instanceof CompletionException)) deepest = m;
        }
        return deepest != null ? deepest : last.getClass().getSimpleName();
    }

    private <T> HttpResponse.BodyHandler<T> watched(HttpResponse.BodyHandler<T> handler) {
        return info -> {
            HttpResponse.BodySubscriber<T> inner = handler.apply(info);
            if (info.statusCode() < 200 || info.statusCode() >= 300) {
                // the SDK logs this and then waits out the connect timeout; the opener fails at once instead
                ended.complete("its event stream answered HTTP " + info.statusCode() + hint(info.statusCode()));
                return inner;
            }
            return new HttpResponse.BodySubscriber<>() {
                @Override
                public CompletionStage<T> getBody() {
                    return inner.getBody();
                }

                @Override
                public void onSubscribe(Flow.Subscription subscription) {
                    inner.onSubscribe(subscription);
                }

                @Override
                public void onNext(List<ByteBuffer> item) {
                    inner.onNext(item);
                }

                @Override
                public void onError(Throwable throwable) {
                    ended.complete("its event stream failed (" + reason(throwable) + ")");
                    inner.onError(throwable);
                }

                @Override
                public void onComplete() {
                    ended.complete("it closed its event stream");
                    inner.onComplete();
                }
            };
        };
    }

    private final class WatchingBuilder implements HttpClient.Builder {
        private final HttpClient.Builder inner;

        WatchingBuilder(HttpClient.Builder inner) {
            this.inner = inner;
        }

        @Override
        public HttpClient.Builder cookieHandler(CookieHandler cookieHandler) {
            inner.cookieHandler(cookieHandler);
            return this;
        }

        @Override
        public HttpClient.Builder connectTimeout(Duration duration) {
            inner.connectTimeout(duration);
            return this;
        }

        @Override
        public HttpClient.Builder sslContext(SSLContext sslContext) {
            inner.sslContext(sslContext);
            return this;
        }

        @Override
        public HttpClient.Builder sslParameters(SSLParameters sslParameters) {
            inner.sslParameters(sslParameters);
            return this;
        }

        @Override
        public HttpClient.Builder executor(Executor executor) {
            inner.executor(executor);
            return this;
        }

        @Override
        public HttpClient.Builder followRedirects(HttpClient.Redirect policy) {
            inner.followRedirects(policy);
            return this;
        }

        @Override
        public HttpClient.Builder version(HttpClient.Version version) {
            inner.version(version);
            return this;
        }

        @Override
        public HttpClient.Builder priority(int priority) {
            inner.priority(priority);
            return this;
        }

        @Override
        public HttpClient.Builder proxy(ProxySelector proxySelector) {
            inner.proxy(proxySelector);
            return this;
        }

        @Override
        public HttpClient.Builder authenticator(Authenticator authenticator) {
            inner.authenticator(authenticator);
            return this;
        }

        @Override
        public HttpClient build() {
            return new WatchingClient(inner.build());
        }
    }

    /** Delegates everything; only the event stream's body handler is wrapped. */
    private final class WatchingClient extends HttpClient {
        private final HttpClient inner;

        WatchingClient(HttpClient inner) {
            this.inner = inner;
        }

        @Override
        public Optional<CookieHandler> cookieHandler() {
            return inner.cookieHandler();
        }

        @Override
        public Optional<Duration> connectTimeout() {
            return inner.connectTimeout();
        }

        @Override
        public Redirect followRedirects() {
            return inner.followRedirects();
        }

        @Override
        public Optional<ProxySelector> proxy() {
            return inner.proxy();
        }

        @Override
        public SSLContext sslContext() {
            return inner.sslContext();
        }

        @Override
        public SSLParameters sslParameters() {
            return inner.sslParameters();
        }

        @Override
        public Optional<Authenticator> authenticator() {
            return inner.authenticator();
        }

        @Override
        public Version version() {
            return inner.version();
        }

        @Override
        public Optional<Executor> executor() {
            return inner.executor();
        }

        @Override
        public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) throws IOException, InterruptedException {
            return inner.send(request, isEventStream(request) ? watched(handler) : handler);
        }

        @Override
        public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
            if (!isEventStream(request)) return inner.sendAsync(request, handler);
            return watchedOpen(inner.sendAsync(request, watched(handler)));
        }

        @Override
        public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler,
                                                                HttpResponse.PushPromiseHandler<T> pushPromiseHandler) {
            if (!isEventStream(request)) return inner.sendAsync(request, handler, pushPromiseHandler);
            return watchedOpen(inner.sendAsync(request, watched(handler), pushPromiseHandler));
        }
    }
}
