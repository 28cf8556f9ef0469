package org.gamecert.verifier.core.check;

/** One failed rule, located as SPEC §11 asks: block, layer, entry index within its layer, position. */
public final class Violation {
    public final String rule;
    public final long block;      // -1 when not in a block
    public final int layer;       // -1 when not tied to a layer
    public final long entry;      // index within its layer, -1 when not tied to an entry
    public final boolean hasPosition;
    public final long mover, opponent;
    public final String message;  // what was claimed and what was found

    public Violation(String rule, long block, int layer, long entry, boolean hasPosition, long mover, long opponent, String message) {
        this.rule = rule;
        this.block = block;
        this.layer = layer;
        this.entry = entry;
        this.hasPosition = hasPosition;
        this.mover = mover;
        this.opponent = opponent;
        this.message = message;
    }

    public static Violation general(String rule, String message) {
        return new Violation(rule, -1, -1, -1, false, 0, 0, message);
    }

    @Override
    public String toString() {
        return rule + (block >= 0 ? " block " + block : "") + (layer >= 0 ? " layer " + layer : "")
                + (entry >= 0 ? " entry " + entry : "") + ": " + message;
    }
}
