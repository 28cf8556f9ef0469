package org.gamecert.verifier.peer;

/** A violation found while reading the input's structure (before any record is checked). */
public final class PeerInputException extends Exception {
    public final String rule;
    public final int layer;

    public PeerInputException(String rule, int layer, String message) {
        super(message);
        this.rule = rule;
        this.layer = layer;
    }
}
