package dev.engram.cli;

import dev.engram.embed.OnnxRuntimeLibraries;
import dev.engram.platform.NativeLibraryCache;
import java.nio.file.Path;
import java.util.List;
import org.sqlite.util.LibraryLoaderUtil;

/**
 * Points the native libraries of SQLite's driver and of ONNX Runtime at one copy per user and version
 * ({@link NativeLibraryCache}) instead of a new copy in the temporary directory at every start, which a
 * halted or killed process left behind. Called once, first thing in {@link Main#main}.
 */
final class NativeLibraries {
    static final String SQLITE_PATH = "org.sqlite.lib.path";
    static final String SQLITE_NAME = "org.sqlite.lib.name";

    private NativeLibraries() {
    }

    /** {@code folder}: where the copies live (the data folder's {@code native}). */
    static void useCacheIn(Path folder) {
        NativeLibraryCache cache = new NativeLibraryCache(folder);
        if (System.getProperty(SQLITE_PATH) == null) {
            try {
                // SQLite's driver loads from these when the file is there, and copies its own otherwise
                String name = LibraryLoaderUtil.getNativeLibName();
                cache.folder(org.sqlite.JDBC.class.getClassLoader(), LibraryLoaderUtil.getNativeLibResourcePath(), List.of(name)).ifPresent(dir -> {
                    System.setProperty(SQLITE_PATH, dir.toString());
                    System.setProperty(SQLITE_NAME, name);
                });
            } catch (RuntimeException | LinkageError e) {
                // the driver's own platform detection failed: it will say so itself when the store opens
            }
        }
        OnnxRuntimeLibraries.use(cache); // ONNX Runtime's 16 MB are copied by the model's load, off the start-up path
    }
}
