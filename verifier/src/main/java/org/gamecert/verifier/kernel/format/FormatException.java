package org.gamecert.verifier.kernel.format;

/** A violation found while reading the container or decoding a payload, with its SPEC rule id. */
public class FormatException extends Exception {
    private final String rule;

    public FormatException(String rule, String message) {
        super(message, null, false, false);
        this.rule = rule;
    }

    public String rule() {
        return rule;
    }
}
