package org.gamecert.verifier.bundle;

/** One reason to reject a bundle, tied to the file it is about (path relative to the bag root). */
public final class Problem {
    public final String file;
    public final String message;

    public Problem(String file, String message) { this.file = file; this.message = message; }

    @Override public String toString() { return file + ": " + message; }
}
