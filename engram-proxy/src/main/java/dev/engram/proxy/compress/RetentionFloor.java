package dev.engram.proxy.compress;

/**
 * The least share of a result a compressed view must keep reachable; below it, AUTO falls back.
 * Smaller results get a higher floor: losing half of 800 chars saves little and hurts much
 * (memtomem-stm's dynamic floor: under 1 KB 90%, under 3 KB 75%, under 10 KB 65%, else the configured floor).
 */
public record RetentionFloor(double configured) {
    public static final double DEFAULT = 0.65;

    public RetentionFloor {
        if (!(configured >= 0 && configured <= 1)) throw new IllegalArgumentException("retention floor must be 0..1, got " + configured);
    }

    public double forSize(int chars) {
        if (chars < 1024) return Math.max(configured, 0.90);
        if (chars < 3 * 1024) return Math.max(configured, 0.75);
        if (chars < 10 * 1024) return Math.max(configured, 0.65);
        return configured;
    }
}
