package dev.engram.platform;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NativeLibraryCacheTest {
    @TempDir
    Path dir;

    private static final String FOLDER = "vendor/native/linux-x64";

    @Test
    void copiesTheFilesOnceAndLoadsTheCopyAfterwards() throws Exception {
        byte[] lib = bytes(300_000, 7);
        byte[] jni = bytes(5_000, 9);
        try (URLClassLoader loader = jar("v1.jar", Map.of(FOLDER + "/libfoo.so", lib, FOLDER + "/libfoo_jni.so", jni))) {
            NativeLibraryCache cache = new NativeLibraryCache(dir.resolve("native"));
            Path folder = cache.folder(loader, "/" + FOLDER, List.of("libfoo.so", "libfoo_jni.so")).orElseThrow();
            assertEquals(dir.resolve("native"), folder.getParent());
            assertArrayEquals(lib, Files.readAllBytes(folder.resolve("libfoo.so")));
            assertArrayEquals(jni, Files.readAllBytes(folder.resolve("libfoo_jni.so")));

            FileTime written = FileTime.fromMillis(1_000_000);
            Files.setLastModifiedTime(folder.resolve("libfoo.so"), written);
            assertEquals(Optional.of(folder), cache.folder(loader, FOLDER, List.of("libfoo.so", "libfoo_jni.so")));
            assertEquals(written, Files.getLastModifiedTime(folder.resolve("libfoo.so")), "a complete copy is not written again");
            assertEquals(List.of("libfoo.so", "libfoo_jni.so"), names(folder), "no partial file left");
        }
    }

    @Test
    void aTruncatedCopyIsReplaced() throws Exception {
        byte[] lib = bytes(100_000, 3);
        try (URLClassLoader loader = jar("v1.jar", Map.of(FOLDER + "/libfoo.so", lib))) {
            NativeLibraryCache cache = new NativeLibraryCache(dir.resolve("native"));
            Path folder = cache.folder(loader, FOLDER, List.of("libfoo.so")).orElseThrow();
            Files.write(folder.resolve("libfoo.so"), new byte[] {1, 2, 3});
            assertEquals(Optional.of(folder), cache.folder(loader, FOLDER, List.of("libfoo.so")));
            assertArrayEquals(lib, Files.readAllBytes(folder.resolve("libfoo.so")));
        }
    }

    @Test
    void anotherVersionOfTheLibraryGetsAnotherFolder() throws Exception {
        NativeLibraryCache cache = new NativeLibraryCache(dir.resolve("native"));
        Path first;
        try (URLClassLoader v1 = jar("v1.jar", Map.of(FOLDER + "/libfoo.so", bytes(10_000, 1)))) {
            first = cache.folder(v1, FOLDER, List.of("libfoo.so")).orElseThrow();
        }
        try (URLClassLoader v2 = jar("v2.jar", Map.of(FOLDER + "/libfoo.so", bytes(10_000, 2)))) {
            Path second = cache.folder(v2, FOLDER, List.of("libfoo.so")).orElseThrow();
            assertNotEquals(first, second);
            assertArrayEquals(bytes(10_000, 2), Files.readAllBytes(second.resolve("libfoo.so")));
        }
        assertArrayEquals(bytes(10_000, 1), Files.readAllBytes(first.resolve("libfoo.so")), "the other version's copy is kept");
    }

    @Test
    void withoutTheFileInAJarTheLibraryIsLeftToItsOwnLoader() throws Exception {
        NativeLibraryCache cache = new NativeLibraryCache(dir.resolve("native"));
        try (URLClassLoader loader = jar("v1.jar", Map.of(FOLDER + "/libfoo.so", bytes(1_000, 1)))) {
            assertEquals(Optional.empty(), cache.folder(loader, FOLDER, List.of("libfoo.so", "libmissing.so")));
        }
        Path classes = Files.createDirectories(dir.resolve("classes").resolve(FOLDER));
        Files.write(classes.resolve("libfoo.so"), bytes(1_000, 1));
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.resolve("classes").toUri().toURL()}, null)) {
            assertEquals(Optional.empty(), cache.folder(loader, FOLDER, List.of("libfoo.so")), "a folder, not a jar");
        }
        Files.writeString(dir.resolve("file"), "not a folder");
        try (URLClassLoader loader = jar("v1b.jar", Map.of(FOLDER + "/libfoo.so", bytes(1_000, 1)))) {
            assertEquals(Optional.empty(), new NativeLibraryCache(dir.resolve("file").resolve("native"))
                    .folder(loader, FOLDER, List.of("libfoo.so")), "a cache folder that cannot be made");
        }
    }

    @Test
    void processesStartingTogetherGetCompleteCopies() throws Exception {
        byte[] lib = bytes(2_000_000, 5);
        try (URLClassLoader loader = jar("v1.jar", Map.of(FOLDER + "/libfoo.so", lib))) {
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                List<Future<Optional<Path>>> results = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    // one cache object each, as separate processes have
                    Callable<Optional<Path>> call = () -> new NativeLibraryCache(dir.resolve("native"))
                            .folder(loader, FOLDER, List.of("libfoo.so"));
                    results.add(pool.submit(call));
                }
                Path folder = results.get(0).get().orElseThrow();
                for (Future<Optional<Path>> r : results) {
                    Path f = r.get().orElseThrow();
                    assertEquals(folder, f);
                    assertArrayEquals(lib, Files.readAllBytes(f.resolve("libfoo.so")));
                }
                assertEquals(List.of("libfoo.so"), names(folder), "no partial file left");
            } finally {
                pool.shutdownNow();
            }
        }
    }

    private URLClassLoader jar(String name, Map<String, byte[]> entries) throws IOException {
        Path jar = dir.resolve(name);
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file)) {
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                out.putNextEntry(new JarEntry(e.getKey()));
                out.write(e.getValue());
                out.closeEntry();
            }
        }
        return new URLClassLoader(new URL[] {jar.toUri().toURL()}, null);
    }

    private static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        new java.util.Random(seed).nextBytes(b);
        return b;
    }

    private static List<String> names(Path folder) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void theCopyIsWhereTheNameSays() throws Exception {
        try (URLClassLoader loader = jar("v1.jar", Map.of(FOLDER + "/libfoo.so", bytes(1_000, 1)))) {
            Path folder = new NativeLibraryCache(dir.resolve("native")).folder(loader, FOLDER, List.of("libfoo.so")).orElseThrow();
            java.util.zip.CRC32 crc = new java.util.zip.CRC32();
            crc.update(bytes(1_000, 1));
            assertEquals(String.format("%08x-1000", crc.getValue()), folder.getFileName().toString());
            assertTrue(Files.isRegularFile(folder.resolve("libfoo.so")));
        }
    }
}
