package dev.engram.embed;

/** Test arithmetic on vectors. */
final class VectorMath {
    private VectorMath() {
    }

    static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) s += (double) a[i] * b[i];
        return s;
    }

    static double norm(float[] a) {
        return Math.sqrt(dot(a, a));
    }
}
