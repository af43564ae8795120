package dev.engram.proxy.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CleanEnvironmentTest {
    @Test
    void onlyPathHomeAndNamedVariablesPass() {
        Map<String, String> parent = Map.of("PATH", "/bin", "HOME", "/root", "USER", "me", "SECRET", "s", "TOKEN", "t");
        assertEquals(Map.of("PATH", "/bin", "HOME", "/root", "TOKEN", "t"), CleanEnvironment.of(parent, List.of("TOKEN", "MISSING")));
    }

    @Test
    void theCommandRunsUnderEnvMinusI() {
        assertEquals(List.of("-i", "PATH=/bin", "node", "server.js", "--x"),
                CleanEnvironment.wrap(new java.util.LinkedHashMap<>(Map.of("PATH", "/bin")), "node", List.of("server.js", "--x")));
    }
}
