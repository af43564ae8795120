package dev.engram.proxy.stats;

import java.util.Map;

/** A report for people (text) and programs (data), as the admin tool and the CLI show it. */
public record Report(String text, Map<String, Object> data) {
}
