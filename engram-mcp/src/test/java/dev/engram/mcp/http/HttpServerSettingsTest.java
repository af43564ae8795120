package dev.engram.mcp.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.EngramUserException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HttpServerSettingsTest {
    @Test
    void refusesToStartWithoutTokensAndSaysHowToConfigureThem() {
        String m = assertThrows(EngramUserException.class, () -> new HttpServerSettings("127.0.0.1", 0, null,
                TokenSet.none(), false, List.of(), List.of())).getMessage();
        assertTrue(m.contains("ENGRAM_TOKENS") && m.contains("--tokens-file") && m.contains("--no-auth"), m);
    }

    @Test
    void noAuthOnlyOnLoopback() {
        new HttpServerSettings("127.0.0.1", 0, null, TokenSet.none(), true, List.of(), List.of());
        new HttpServerSettings("localhost", 0, null, TokenSet.none(), true, List.of(), List.of());
        new HttpServerSettings("::1", 0, null, TokenSet.none(), true, List.of(), List.of());
        String m = assertThrows(EngramUserException.class, () -> new HttpServerSettings("0.0.0.0", 0, null,
                TokenSet.none(), true, List.of(), List.of())).getMessage();
        assertTrue(m.startsWith("--no-auth is allowed only on a loopback address"), m);
    }

    @Test
    void portRange() {
        assertEquals("port must be 0..65535, got 70000", assertThrows(EngramUserException.class,
                () -> new HttpServerSettings("127.0.0.1", 70_000, null, TokenSet.of(List.of("t")), false,
                        List.of(), List.of())).getMessage());
    }

    @Test
    void tokensMatchExactlyAndNeverShowInToString() {
        TokenSet tokens = TokenSet.of(TokenSet.parseList(" alpha-token , beta-token,,"));
        assertEquals(2, tokens.size());
        assertTrue(tokens.matches("alpha-token"));
        assertTrue(tokens.matches("beta-token"));
        assertFalse(tokens.matches("alpha-toke"));
        assertFalse(tokens.matches("alpha-token "));
        assertFalse(tokens.matches(""));
        assertFalse(tokens.matches(null));
        assertFalse(tokens.toString().contains("alpha"));
    }

    @Test
    void tokensFileSkipsCommentsAndBlankLines(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("tokens");
        Files.writeString(file, "# team tokens\n\n  first-token  \n#second-token\nthird-token\n");
        assertEquals(List.of("first-token", "third-token"), TokenSet.readFile(file));
    }

    @Test
    void extraHostsAndOriginsMustBeWellFormed() {
        new HttpServerSettings("127.0.0.1", 0, null, TokenSet.of(List.of("t")), false, List.of("mem.example.com:443"),
                List.of("https://app.example", "http://10.0.0.5:8080"));
        String m = assertThrows(EngramUserException.class, () -> new HttpServerSettings("127.0.0.1", 0, null,
                TokenSet.of(List.of("t")), false, List.of(), List.of("app.example/path"))).getMessage();
        assertTrue(m.startsWith("--allowed-origin 'app.example/path' is not an origin"), m);
        m = assertThrows(EngramUserException.class, () -> new HttpServerSettings("127.0.0.1", 0, null,
                TokenSet.of(List.of("t")), false, List.of("http://x"), List.of())).getMessage();
        assertTrue(m.startsWith("--allowed-host 'http://x' is not a host"), m);
    }
}
