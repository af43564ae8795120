package dev.engram.mcp.profile.toon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The line format's edges: toon's bare [N|] header, lines outside a section, and backslash pairs it does not decode. */
class ToonFormatTest {
    @Test
    void aBareCountHeaderStartsTheSection() {
        for (String header : List.of("[1|]", "[1|]:", "entries[1|]", "[1|]{id|category|key|content}:")) {
            ToonFormat.Parsed p = ToonFormat.parse("version: 1\n" + header + "\n  a1|decision|use-zod|Use Zod\n");
            assertEquals(1, p.entries().size(), header);
            assertEquals("use-zod", p.entries().get(0).get("key"), header);
            assertTrue(p.malformed().isEmpty(), header + ": " + p.malformed());
        }
    }

    @Test
    void indentedLinesOutsideASectionAreMalformedNotSkipped() {
        ToonFormat.Parsed p = ToonFormat.parse("version: 1\nstuff[x]\n  a1|decision|use-zod|Use Zod\n");
        assertEquals(0, p.entries().size());
        assertEquals(1, p.malformed().size(), p.malformed().toString());
        assertTrue(p.malformed().get(0).startsWith("line 3:"), p.malformed().toString());
    }

    @Test
    void onlyNewlinePipeAndBackslashAreDecoded() {
        ToonFormat.Parsed p = ToonFormat.parse("[1|]{id|category|key|content}:\n  a1|knowledge|paths|C:\\temp\\x \\r a\\|b\\\\c\\nd\n");
        assertEquals("C:\\temp\\x \\r a|b\\c\nd", p.entries().get(0).get("content"));
    }

    @Test
    void carriageReturnsAreWrittenAsLineBreaksAndReadBackAsText() {
        String text = ToonFormat.write("entries", List.of(new ToonFormat.Entry(Map.of("id", "a1", "category", "knowledge",
                "key", "crlf", "content", "one\r\ntwo\rthree \\t"), false)), Map.of());
        assertFalse(text.contains("\r"), text);
        assertEquals("one\ntwo\nthree \\t", ToonFormat.parse(text).entries().get(0).get("content"));
    }

    @Test
    void documentsAreToldFromOtherFiles() {
        assertTrue(ToonFormat.isDocument(""));
        assertTrue(ToonFormat.isDocument("version: 1\n[0|]\n"));
        assertFalse(ToonFormat.isDocument("root:x:0:0:root:/root:/bin/bash\n"));
        assertFalse(ToonFormat.isDocument("{\"entities\": []}"));
    }
}
