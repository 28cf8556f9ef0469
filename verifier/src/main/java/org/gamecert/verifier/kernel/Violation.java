package org.gamecert.verifier.kernel;

/**
 * One failed rule, located as SPEC §11 asks: block (-1 when not in a block), layer (-1 when not
 * tied to one; a block's u32 layer field as read), entry index within its layer (-1 when not tied
 * to an entry), and the position when
 * hasPosition; message: what was claimed and what was found.
 */
public record Violation(String rule, long block, long layer, long entry, boolean hasPosition,
        long mover, long opponent, String message) implements java.io.Serializable {
    public static Violation general(String rule, String message) {
        return new Violation(rule, -1, -1, -1, false, 0, 0, message);
    }

    /** x's entry comes before y's in the file (stable for violations of one entry). */
    static boolean before(Violation x, Violation y) {
        return x.block() != y.block() ? x.block() < y.block() : x.entry() < y.entry();
    }

    @Override
    public String toString() {
        return rule + (block >= 0 ? " block " + block : "") + (layer >= 0 ? " layer " + layer : "")
                + (entry >= 0 ? " entry " + entry : "") + ": " + message;
    }
}
