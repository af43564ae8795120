package dev.engram.platform;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.jar.JarEntry;
import java.util.zip.CRC32;

/**
 * Native libraries that dependencies ship inside their jars (SQLite's driver, ONNX Runtime), copied out once
 * into a folder of the user's data directory and loaded from there by every later process.
 *
 * <p>Left to themselves, those libraries copy the file into the temporary directory at every start and delete
 * it on exit: 120 ms of SQLite's 140 ms load here, and a process that ends by halting (as {@code engram mcp}
 * does at the end of its input) or is killed leaves its copy behind, 1.1 MB for SQLite and 16.5 MB for ONNX
 * Runtime each time. Here a folder is named after the files' sizes and CRCs from the jar's directory (known
 * without reading the files), so a new version gets a new folder and an existing one is used as it is. A copy
 * is written under a temporary name and renamed when complete and checked, so processes starting together
 * never load a half-written file. Anything that goes wrong answers empty: the caller leaves the library to its
 * own loader, as before.
 */
public final class NativeLibraryCache {
    private final Path root;

    public NativeLibraryCache(Path root) {
        this.root = root;
    }

    /**
     * The folder holding {@code files} of {@code resourceFolder} (a folder of {@code loader}'s class path, such
     * as {@code org/sqlite/native/Linux/x86_64}; a leading slash is ignored), copied out now if they are not
     * there yet; empty when a file is not in a jar or cannot be copied.
     */
    public Optional<Path> folder(ClassLoader loader, String resourceFolder, List<String> files) {
        String prefix = resourceFolder.startsWith("/") ? resourceFolder.substring(1) : resourceFolder;
        try {
            StringBuilder key = new StringBuilder();
            JarEntry[] entries = new JarEntry[files.size()];
            URL[] urls = new URL[files.size()];
            for (int i = 0; i < files.size(); i++) {
                urls[i] = loader.getResource(prefix + "/" + files.get(i));
                if (urls[i] == null) return Optional.empty();
                URLConnection connection = urls[i].openConnection();
                if (!(connection instanceof JarURLConnection jar)) return Optional.empty();
                entries[i] = jar.getJarEntry();
                if (entries[i] == null || entries[i].getCrc() < 0 || entries[i].getSize() < 0) return Optional.empty();
                key.append(String.format(Locale.ROOT, "%s%08x-%d", i == 0 ? "" : "-", entries[i].getCrc(), entries[i].getSize()));
            }
            Path folder = root.resolve(key.toString());
            for (int i = 0; i < files.size(); i++) {
                Path target = folder.resolve(files.get(i));
                if (Files.isRegularFile(target) && Files.size(target) == entries[i].getSize()) continue;
                Files.createDirectories(folder);
                if (!copy(urls[i], entries[i], target)) return Optional.empty();
            }
            return Optional.of(folder);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Copies the entry to a private name, checks its CRC, then renames it to {@code target}. */
    private static boolean copy(URL url, JarEntry entry, Path target) throws IOException {
        Path partial = Files.createTempFile(target.getParent(), target.getFileName() + ".", ".partial");
        try {
            CRC32 crc = new CRC32();
            try (InputStream in = url.openStream(); OutputStream out = Files.newOutputStream(partial)) {
                byte[] buffer = new byte[1 << 16];
                for (int n; (n = in.read(buffer)) > 0; ) {
                    crc.update(buffer, 0, n);
                    out.write(buffer, 0, n);
                }
            }
            if (crc.getValue() != entry.getCrc() || Files.size(partial) != entry.getSize()) return false;
            try {
                Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
            }
            return true;
        } finally {
            Files.deleteIfExists(partial);
        }
    }
}
