package dev.engram.proxy.upstream;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The environment an upstream child process gets: PATH and HOME (so {@code npx}, {@code node} and
 * caches work) plus the variables its config names, taken from the proxy's environment. Nothing else:
 * the proxy may hold credentials for other servers (SDK gotcha 5).
 */
public final class CleanEnvironment {
    public static final List<String> ALWAYS = List.of("PATH", "HOME");

    private CleanEnvironment() {
    }

    public static Map<String, String> of(Map<String, String> parent, List<String> passEnv) {
        Map<String, String> env = new LinkedHashMap<>();
        for (String name : ALWAYS) {
            String v = parent.get(name);
            if (v != null) env.put(name, v);
        }
        for (String name : passEnv) {
            String v = parent.get(name);
            if (v != null) env.put(name, v);
        }
        return env;
    }

    /**
     * {@code env -i K=V … command args}: the SDK's {@code ServerParameters} always adds LOGNAME,
     * SHELL, TERM and USER from the parent, so the child itself clears what it was given and starts
     * the real command with exactly {@code env}. {@code env} execs, so the upstream keeps its pid.
     */
    public static List<String> wrap(Map<String, String> env, String command, List<String> args) {
        List<String> argv = new ArrayList<>();
        argv.add("-i");
        env.forEach((k, v) -> argv.add(k + "=" + v));
        argv.add(command);
        argv.addAll(args);
        return argv;
    }
}
