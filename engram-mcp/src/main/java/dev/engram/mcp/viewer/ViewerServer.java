package dev.engram.mcp.viewer;

import java.net.URI;
import org.eclipse.jetty.ee10.servlet.ErrorHandler;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * {@code engram viewer}: the viewer alone on a loopback address, without tokens (only this machine can
 * connect, and the Host check keeps other web pages out). {@code /} redirects to {@code /ui/}.
 */
public final class ViewerServer implements AutoCloseable {
    /** Beside {@code engram serve}'s 56332. */
    public static final int DEFAULT_PORT = 56333;

    private final Server jetty;
    private final URI url;

    private ViewerServer(Server jetty, URI url) {
        this.jetty = jetty;
        this.url = url;
    }

    /** Binds {@code 127.0.0.1:port} (0 picks a free port) and starts serving. */
    public static ViewerServer start(int port, ViewerServlet servlet) throws Exception {
        Server jetty = new Server();
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        ServerConnector connector = new ServerConnector(jetty, new HttpConnectionFactory(http));
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        ErrorHandler errors = new ErrorHandler();
        errors.setShowStacks(false);
        errors.setShowCauses(false);
        context.setErrorHandler(errors);
        context.addServlet(new ServletHolder("viewer", servlet), ViewerServlet.MOUNT + "/*");
        context.addServlet(new ServletHolder("root", new jakarta.servlet.http.HttpServlet() {
            @Override
            protected void doGet(jakarta.servlet.http.HttpServletRequest req, jakarta.servlet.http.HttpServletResponse res)
                    throws java.io.IOException {
                res.sendRedirect(ViewerServlet.MOUNT + "/");
            }
        }), "");
        jetty.setHandler(context);
        try {
            jetty.start();
        } catch (Exception e) {
            jetty.stop();
            throw e;
        }
        return new ViewerServer(jetty, URI.create("http://127.0.0.1:" + connector.getLocalPort() + ViewerServlet.MOUNT + "/"));
    }

    /** The page's address. */
    public URI url() {
        return url;
    }

    public void join() throws InterruptedException {
        jetty.join();
    }

    @Override
    public void close() throws Exception {
        jetty.stop();
    }
}
