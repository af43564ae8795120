package dev.engram.mcp.http;

/** Decides whether a caller may send a request now: 0 if so, else the nanoseconds until it may. */
interface CallerLimiter {
    long acquire(String caller);
}
