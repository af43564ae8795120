package dev.engram.proxy.compress;

import static dev.engram.proxy.compress.CompressFixtures.MAPPER;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.engram.proxy.config.CompressionMode;
import org.junit.jupiter.api.Test;

class StrategyChooserTest {
    private static CompressionMode choose(String text, int budget) {
        return StrategyChooser.choose(ContentShape.of(text, MAPPER), text.length(), budget);
    }

    @Test
    void largeJsonArraysAreSchemaPruned() {
        assertEquals(CompressionMode.SCHEMA_PRUNING, choose(CompressFixtures.jsonArray(20), 1000));
        assertEquals(CompressionMode.SCHEMA_PRUNING, choose("{\"items\":" + CompressFixtures.jsonArray(25) + "}", 1000));
    }

    @Test
    void nestedObjectsHaveTheirFieldsExtracted() {
        assertEquals(CompressionMode.EXTRACT_FIELDS, choose(CompressFixtures.nestedJson(3, 10), 1000));
    }

    @Test
    void otherJsonIsChunkedNotCut() {
        assertEquals(CompressionMode.PROGRESSIVE, choose(CompressFixtures.jsonArray(19), 1000));
        assertEquals(CompressionMode.PROGRESSIVE, choose(CompressFixtures.nestedJson(2, 50), 1000));
    }

    @Test
    void markdownWithHeadingsIsHybridUntilItIsFarOverBudget() {
        String md = CompressFixtures.markdown(10, 4);
        assertEquals(CompressionMode.HYBRID, choose(md, md.length() / 2));
        assertEquals(CompressionMode.SELECTIVE, choose(md, md.length() / (StrategyChooser.SELECTIVE_FACTOR + 1)));
    }

    @Test
    void fewHeadingsOrPlainTextIsProgressive() {
        assertEquals(CompressionMode.PROGRESSIVE, choose(CompressFixtures.markdown(3, 20), 1000));
        assertEquals(CompressionMode.PROGRESSIVE, choose(CompressFixtures.prose(100), 1000));
        assertEquals(CompressionMode.PROGRESSIVE, choose("[INFO] not json, a log line\n".repeat(200), 1000));
    }

    @Test
    void codeHeavyTextIsHybrid() {
        String code = "Intro\n\n" + "```java\nclass A {}\n```\n\nExplanation of the block.\n\n".repeat(4);
        assertEquals(CompressionMode.HYBRID, choose(code, 100));
    }
}
