package dev.engram.proxy.compress;

/** A contiguous slice {@code [start, end)} of a stored original, addressable by {@code id}. */
public record Section(String id, String title, int start, int end) {
    public Section {
        if (start < 0 || end < start) throw new IllegalArgumentException("section " + id + ": bad range " + start + ".." + end);
    }

    public int size() {
        return end - start;
    }
}
