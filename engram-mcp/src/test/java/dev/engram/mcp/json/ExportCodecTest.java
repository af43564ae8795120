package dev.engram.mcp.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.ExportRecord;
import dev.engram.error.InvalidArgumentException;
import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Importance;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryType;
import dev.engram.memory.MemoryVersion;
import dev.engram.memory.Origin;
import dev.engram.mcp.profile.nativeprofile.StructuredRenderer;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExportCodecTest {
    private final ExportCodec codec = new ExportCodec(new StructuredRenderer(), JsonText.standard());

    static ExportRecord full() {
        Instant t = Instant.parse("2026-11-29T10:15:30.123456789Z");
        Memory m = Memory.builder().id("m_abcdefgh23").key("use-zod").name("Use Zod: 검증").zone("web")
                .type(MemoryType.DECISION).entityType("Decision")
                .content("Use zod for validation.\nNot joi: \"slow\".").tags(List.of("api", "validation"))
                .file("src/a.ts").pathScope("src/**").importance(Importance.HIGH).quality(0.73333333333)
                .confidence(0.9).status(MemoryStatus.ACTIVE).createdAt(t).updatedAt(t.plusSeconds(5))
                .lastAccessedAt(t.plusSeconds(9)).accessCount(12).expiresAt(t.plusSeconds(86_400)).occurredAt(t.minusSeconds(86_400))
                .reviewIntervalDays(4).lastVerifiedAt(t).verifyCount(3).relevance(10).origin(Origin.HUMAN).session("s1")
                .branch("main").pinPriority(2).supersededAt(t).supersededBy("m_bbbbbbbbbb").lastDecayAt(t.plusSeconds(7)).build();
        return new ExportRecord(m,
                List.of(new Edge("m_abcdefgh23", "m_cccccccccc", EdgeType.CAUSED_BY, t),
                        new Edge("m_abcdefgh23", "m_cccccccccc", EdgeType.RELATED, "works at", t)),
                List.of(new MemoryVersion("m_abcdefgh23", 1, "Use joi.", List.of("api"), null, t)));
    }

    static ExportRecord minimal() {
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        return new ExportRecord(Memory.builder().id("m_aaaaaaaaaa").key("k").content("c").createdAt(t).updatedAt(t)
                .build(), List.of(), List.of());
    }

    @Test
    void readIsTheExactInverseOfWrite() {
        for (ExportRecord r : List.of(full(), minimal())) {
            String line = codec.write(r);
            assertTrue(!line.contains("\n"), "one line per memory");
            assertEquals(r, codec.read(line));
            assertEquals(line, codec.write(codec.read(line)));
        }
    }

    @Test
    void aZoneLineReadsBackAsItsRecordAndIsNoMemory() {
        for (dev.engram.memory.ZoneInfo z : List.of(
                new dev.engram.memory.ZoneInfo("work", "업무", "업무 관련 지식", Instant.parse("2026-10-18T14:45:54.266Z"),
                        Instant.parse("2026-12-04T14:45:54.266Z")),
                new dev.engram.memory.ZoneInfo("emptyzone", null, null, Instant.parse("2026-01-01T00:00:00Z"),
                        Instant.parse("2026-01-01T00:00:00Z")))) {
            String line = codec.write(z);
            assertTrue(line.startsWith("{\"record\":\"zone\",\"name\":\"" + z.name() + "\""), line);
            assertEquals(new ExportCodec.OfZone(z), codec.readLine(line));
            assertEquals(line, codec.write(((ExportCodec.OfZone) codec.readLine(line)).zone()));
            assertTrue(assertThrows(InvalidArgumentException.class, () -> codec.read(line)).getMessage().contains("zone line"));
        }
        assertEquals(new ExportCodec.OfMemory(full()), codec.readLine(codec.write(full())), "a line without record is a memory");
        String future = "{\"record\":\"topic\",\"name\":\"x\"}";
        assertTrue(assertThrows(InvalidArgumentException.class, () -> codec.readLine(future)).getMessage().contains("'topic'"),
                "a kind of line this Engram does not know is refused, not mistaken for a memory");
        assertThrows(InvalidArgumentException.class, () -> codec.readLine("{\"record\":\"zone\",\"name\":\"Bad Zone\","
                + "\"created_at\":\"2026-01-01T00:00:00Z\",\"updated_at\":\"2026-01-01T00:00:00Z\"}"));
    }

    @Test
    void aLineWrittenBeforeTheWidenedModelStillReads() {
        String old = codec.write(minimal()).replace("\"verify_count\":0,", "").replace("\"relevance\":1.0,", "\"tier\":\"hot\",");
        assertTrue(old.contains("\"tier\":\"hot\"") && !old.contains("relevance"), old);
        assertEquals(minimal(), codec.read(old), "no verify count or relevance: the defaults; the stored tier is ignored");
    }

    @Test
    void aHandWrittenLineMayUseTheNativeTypeAliases() {
        // the aliases left MemoryType (issue 15); JSONL import keeps accepting them through TypeAliases
        String line = codec.write(minimal());
        assertEquals(MemoryType.ERROR, codec.read(line.replace("\"type\":\"fact\"", "\"type\":\"bug\"")).memory().type());
        assertEquals(MemoryType.PATTERN, codec.read(line.replace("\"type\":\"fact\"", "\"type\":\"convention\""))
                .memory().type());
    }

    @Test
    void badLinesNameTheField() {
        String line = codec.write(minimal()).replace("\"type\":\"fact\"", "\"type\":\"idea\"");
        assertEquals("type 'idea' is not a known type; send one of decision, pattern, error, warning, preference,"
                + " procedure, fact, relation, entity", assertThrows(InvalidArgumentException.class,
                () -> codec.read(line)).getMessage());
        assertEquals("created_at is missing", assertThrows(InvalidArgumentException.class,
                () -> codec.read(codec.write(minimal()).replace("\"created_at\"", "\"created\""))).getMessage());
        assertTrue(assertThrows(InvalidArgumentException.class, () -> codec.read("{oops")).getMessage()
                .startsWith("line not a JSON object"));
        for (String empty : List.of("", "  \n ")) {
            String blank = codec.write(minimal()).replace("\"content\":\"c\"", "\"content\":" + JsonText.standard().write(empty));
            assertEquals("content is empty; every memory holds some text",
                    assertThrows(InvalidArgumentException.class, () -> codec.read(blank)).getMessage());
        }
    }
}
