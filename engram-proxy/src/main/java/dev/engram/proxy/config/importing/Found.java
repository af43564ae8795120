package dev.engram.proxy.config.importing;

import java.util.List;

/**
 * What a scan of one tool's configuration found: the entries that can be fronted, the files read,
 * and notes about everything else (entries skipped and why, settings with no counterpart).
 * {@code advertiseContextQuery} is memtomem-stm's proxy-wide switch of that name when the file set
 * it (null: not set, proxy.json's value stays).
 */
public record Found(List<ImportCandidate> candidates, List<String> filesRead, List<String> notes, Boolean advertiseContextQuery) {
    public Found {
        candidates = List.copyOf(candidates);
        filesRead = List.copyOf(filesRead);
        notes = List.copyOf(notes);
    }

    public Found(List<ImportCandidate> candidates, List<String> filesRead, List<String> notes) {
        this(candidates, filesRead, notes, null);
    }
}
