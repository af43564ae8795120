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
    void otherJsonIsChunkedNotCutAndGetsATableOfContentsWhenLong() {
        String array = CompressFixtures.jsonArray(19);
        assertEquals(CompressionMode.PROGRESSIVE, choose(array, array.length() / 2));
        assertEquals(CompressionMode.SELECTIVE, choose(array, array.length() / (StrategyChooser.LONG_FACTOR + 1)));
        String twoGroups = CompressFixtures.nestedJson(2, 50);
        assertEquals(CompressionMode.PROGRESSIVE, choose(twoGroups, twoGroups.length() / 2));
    }

    @Test
    void markdownWithHeadingsIsHybridUntilItIsFarOverBudget() {
        String md = CompressFixtures.markdown(10, 4);
        assertEquals(CompressionMode.HYBRID, choose(md, md.length() / 2));
        assertEquals(CompressionMode.SELECTIVE, choose(md, md.length() / (StrategyChooser.SELECTIVE_FACTOR + 1)));
    }

    @Test
    void fewHeadingsOrPlainTextIsProgressiveUntilItIsLong() {
        String md = CompressFixtures.markdown(3, 20);
        assertEquals(CompressionMode.PROGRESSIVE, choose(md, md.length() / 2));
        String prose = CompressFixtures.prose(100);
        assertEquals(CompressionMode.PROGRESSIVE, choose(prose, prose.length() / StrategyChooser.LONG_FACTOR));
        assertEquals(CompressionMode.HYBRID, choose(prose, prose.length() / StrategyChooser.LONG_FACTOR - 1));
        String log = "[INFO] not json, a log line\n".repeat(200);
        assertEquals(CompressionMode.PROGRESSIVE, choose(log, log.length() / 2));
    }

    @Test
    void codeHeavyTextIsHybrid() {
        String code = "Intro\n\n" + "```java\nclass A {}\n```\n\nExplanation of the block.\n\n".repeat(4);
        assertEquals(CompressionMode.HYBRID, choose(code, 100));
    }
}
