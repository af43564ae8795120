package dev.engram.proxy.config.importing;

import java.util.List;

/**
 * What a scan of one tool's configuration found: the entries that can be fronted, the files read,
 * and notes about everything else (entries skipped and why, settings with no counterpart).
 */
public record Found(List<ImportCandidate> candidates, List<String> filesRead, List<String> notes) {
    public Found {
        candidates = List.copyOf(candidates);
        filesRead = List.copyOf(filesRead);
        notes = List.copyOf(notes);
    }
}
