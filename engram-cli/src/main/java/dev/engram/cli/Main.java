package dev.engram.cli;

/** Entry point and composition root. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        System.err.println("engram 0.1.0");
    }
}
