package dev.engram.proxy.config;

import dev.engram.proxy.compress.TocFormat;
import java.util.Map;

/**
 * Process-wide compression settings from the environment, read where the proxy is composed:
 * {@code ENGRAM_PROXY_TOC_FORMAT} ({@code json} or {@code text}: one form for every table of contents;
 * unset: {@link TocFormat.Choice#DEFAULT}) and the {@code llm_summary} settings ({@link LlmSummarySettings}).
 * Each name also accepts memtomem-stm's {@code MEMTOMEM_STM_} spelling.
 */
public record CompressionSettings(TocFormat.Choice toc, LlmSummarySettings llm) {
    public static CompressionSettings defaults() {
        return new CompressionSettings(TocFormat.Choice.DEFAULT, LlmSummarySettings.defaults());
    }

    public static CompressionSettings fromEnv(Map<String, String> env) {
        String toc = new ProxySettings.Env(env).text(TocFormat.SETTING, null);
        return new CompressionSettings(toc == null ? TocFormat.Choice.DEFAULT
                : TocFormat.Choice.all(TocFormat.parse("ENGRAM_PROXY_" + TocFormat.SETTING, toc)), LlmSummarySettings.fromEnv(env));
    }
}
