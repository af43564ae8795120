package dev.engram.engine.session;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This machine's name, which tells a session's pid can be checked here. Read from the kernel's hostname
 * file where there is one (no name lookup that could wait on DNS), else from the JDK.
 */
final class HostName {
    private static volatile String cached;

    private HostName() {
    }

    static String current() {
        String h = cached;
        if (h == null) cached = h = read();
        return h;
    }

    private static String read() {
        for (String p : new String[]{"/proc/sys/kernel/hostname", "/etc/hostname"}) {
            try {
                Path file = Path.of(p);
                if (Files.isReadable(file)) {
                    String name = Files.readString(file).strip();
                    if (!name.isEmpty()) return name;
                }
            } catch (IOException | RuntimeException e) {
                // the next source
            }
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException | RuntimeException e) {
            return "localhost";
        }
    }
}
