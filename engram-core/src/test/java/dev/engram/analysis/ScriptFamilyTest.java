package dev.engram.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ScriptFamilyTest {

    @Test
    void aFamilyHoldsAboveAThirdOfTheLetters() {
        assertEquals(ScriptFamily.LATIN, ScriptFamily.of("La conexión a redis falla"));
        assertEquals(ScriptFamily.CJK, ScriptFamily.of("redis 캐시 설정")); // 4 of 9 letters Hangul
        assertEquals(ScriptFamily.LATIN, ScriptFamily.of("redis 캐시")); // 2 of 7: not enough
        assertEquals(ScriptFamily.CJK, ScriptFamily.of("キャッシュの設定"));
        assertEquals(ScriptFamily.CYRILLIC, ScriptFamily.of("Кэш сбрасывается ночью"));
        assertEquals(ScriptFamily.GREEK, ScriptFamily.of("λάθος σύνδεσης"));
        assertEquals(ScriptFamily.HEBREW, ScriptFamily.of("שגיאת חיבור"));
        assertEquals(ScriptFamily.ARABIC, ScriptFamily.of("خطأ في الاتصال"));
        assertEquals(ScriptFamily.DEVANAGARI, ScriptFamily.of("कनेक्शन त्रुटि"));
        assertEquals(ScriptFamily.NONE, ScriptFamily.of("404 — 2026-12-04"));
    }
}
