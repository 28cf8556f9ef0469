package org.gamecert.verifier.cli;

/** Placeholder entry point; replaced by the verifier CLI. */
public final class VerifyMain {
    public static void main(String[] args) {
        System.out.println("gamecert verifier (skeleton)");
    }
}
