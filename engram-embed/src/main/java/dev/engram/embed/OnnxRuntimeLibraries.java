package dev.engram.embed;

import ai.onnxruntime.OrtEnvironment;
import dev.engram.platform.NativeLibraryCache;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Where ONNX Runtime loads its native libraries from: a {@link NativeLibraryCache} folder when the composition
 * root gives one, else (tests, embedders of the library) its own copy into the temporary directory at every
 * load. ONNX Runtime reads the folder from a system property once, on its first use in the process, so this is
 * process-wide state, set before the first session.
 */
public final class OnnxRuntimeLibraries {
    static final String PATH_PROPERTY = "onnxruntime.native.path";
    private static volatile NativeLibraryCache cache;
    private static boolean prepared;

    private OnnxRuntimeLibraries() {
    }

    /** Loads ONNX Runtime from {@code cache} from now on (unless {@value #PATH_PROPERTY} is set already). */
    public static void use(NativeLibraryCache cache) {
        OnnxRuntimeLibraries.cache = cache;
    }

    /** Before ONNX Runtime's first use: copies its libraries into the cache if needed, and points it there. */
    static synchronized void prepare() {
        NativeLibraryCache c = cache;
        if (prepared || c == null || System.getProperty(PATH_PROPERTY) != null) return;
        prepared = true;
        String platform = platformFolder(System.getProperty("os.name", ""), System.getProperty("os.arch", ""));
        if (platform == null) return;
        List<String> files = List.of(System.mapLibraryName("onnxruntime"), System.mapLibraryName("onnxruntime4j_jni"));
        Optional<Path> folder = c.folder(OrtEnvironment.class.getClassLoader(), "/ai/onnxruntime/native/" + platform, files);
        if (folder.isEmpty()) return;
        try {
            // a folder the system will not load from (a noexec mount) must not become the only place ONNX
            // Runtime looks: it would fail where its own copy in the temporary directory works
            System.load(folder.get().resolve(files.get(0)).toString());
        } catch (UnsatisfiedLinkError e) {
            return;
        }
        System.setProperty(PATH_PROPERTY, folder.get().toString());
    }

    /** ONNX Runtime's folder name for a platform (its jar's {@code ai/onnxruntime/native/<name>}); null if none. */
    static String platformFolder(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT);
        String arch = osArch.toLowerCase(Locale.ROOT);
        String system = os.contains("mac") || os.contains("darwin") ? "osx"
                : os.contains("win") ? "win" : os.contains("nux") ? "linux" : null;
        String machine = arch.equals("amd64") || arch.equals("x86_64") ? "x64" : arch.equals("aarch64") ? "aarch64" : null;
        return system == null || machine == null ? null : system + "-" + machine;
    }
}
