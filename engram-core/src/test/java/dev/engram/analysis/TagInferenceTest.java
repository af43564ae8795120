package dev.engram.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TagInferenceTest {

    @Test
    void builtInVocabularyHasAtLeastTwentyTopicsIncludingTheCommonOnes() {
        var topics = TagVocabulary.builtInOnly().topics();
        assertTrue(topics.size() >= 20, topics.toString());
        assertTrue(topics.containsAll(List.of("redis", "auth", "api", "db", "security", "test", "deploy", "config",
                "performance")), topics.toString());
    }

    @Test
    void infersTopicsByKeywordWordsAndPhrasesMostHitsFirst() {
        TagVocabulary v = TagVocabulary.builtInOnly();
        assertEquals(List.of("db"), v.infer("Run the Postgres migration before the schema change"));
        assertTrue(v.infer("Open a pull request after the rebase").contains("git"));
        assertTrue(v.infer("nothing relevant here at all").isEmpty());
        assertTrue(v.infer("redis redis auth token password login session jwt api db sql test").size()
                <= TagVocabulary.MAX_INFERRED);
        assertEquals("auth", v.infer("login with jwt token and password, redis").get(0));
    }

    @Test
    void projectVocabularyComesFromDependencyManifests(@TempDir Path root) throws Exception {
        Files.writeString(root.resolve("package.json"), """
                {"name": "app", "dependencies": {"zod": "^3.0.0", "@tanstack/react-query": "5"},
                 "devDependencies": {"vitest": "1"}}""");
        Files.writeString(root.resolve("pom.xml"), "<project><artifactId>app</artifactId><dependencies>"
                + "<dependency><artifactId>lucene-core</artifactId></dependency></dependencies></project>");
        Files.writeString(root.resolve("go.mod"), "module x\nrequire (\n  github.com/gin-gonic/gin v1.9.0\n)\n");
        Files.writeString(root.resolve("requirements.txt"), "fastapi>=0.100\n# comment\nuvicorn\n");
        Files.writeString(root.resolve("Cargo.toml"), "[package]\nname = \"x\"\n[dependencies]\nserde = \"1\"\ntokio = { version = \"1\" }\n");
        Files.writeString(root.resolve("build.gradle.kts"), "dependencies { implementation(\"com.squareup.okhttp3:okhttp:4.12.0\") }");
        Files.writeString(root.resolve("pyproject.toml"), "[project]\ndependencies = [\"httpx>=0.27\", \"pydantic\"]\n");
        Map<String, List<String>> topics = ProjectVocabulary.scan(root);
        for (String t : List.of("zod", "react-query", "vitest", "lucene", "gin", "fastapi", "uvicorn", "serde", "tokio",
                "okhttp", "httpx", "pydantic")) {
            assertTrue(topics.containsKey(t), t + " missing from " + topics.keySet());
        }
        TagVocabulary v = TagVocabulary.withProject(topics);
        assertTrue(v.infer("Validate the payload with zod first").contains("zod"));
        assertTrue(ProjectVocabulary.scan(null).isEmpty());
        assertTrue(ProjectVocabulary.scan(root.resolve("missing")).isEmpty());
    }
}
