package dev.engram.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class OnnxRuntimeLibrariesTest {
    @Test
    void platformsAreNamedAsOnnxRuntimesJarNamesTheirFolders() {
        assertEquals("linux-x64", OnnxRuntimeLibraries.platformFolder("Linux", "amd64"));
        assertEquals("linux-aarch64", OnnxRuntimeLibraries.platformFolder("Linux", "aarch64"));
        assertEquals("osx-aarch64", OnnxRuntimeLibraries.platformFolder("Mac OS X", "aarch64"));
        assertEquals("osx-x64", OnnxRuntimeLibraries.platformFolder("Mac OS X", "x86_64"));
        assertEquals("win-x64", OnnxRuntimeLibraries.platformFolder("Windows 11", "amd64"));
        assertNull(OnnxRuntimeLibraries.platformFolder("Linux", "ppc64le"));
        assertNull(OnnxRuntimeLibraries.platformFolder("FreeBSD", "amd64"));
    }

    @Test
    void thisPlatformsLibrariesAreInTheJarWhereTheNameSays() {
        String platform = OnnxRuntimeLibraries.platformFolder(System.getProperty("os.name"), System.getProperty("os.arch"));
        assertNotNull(platform, "a platform ONNX Runtime ships for");
        for (String lib : List.of("onnxruntime", "onnxruntime4j_jni")) {
            String resource = "ai/onnxruntime/native/" + platform + "/" + System.mapLibraryName(lib);
            assertNotNull(ai.onnxruntime.OrtEnvironment.class.getClassLoader().getResource(resource), resource);
        }
    }
}
