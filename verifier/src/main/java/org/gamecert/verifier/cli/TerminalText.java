package org.gamecert.verifier.cli;

/**
 * Text from an input (a title, a file name, a line of a file) as a human report prints it: its
 * control characters (C0, DEL, C1) shown as '?', so that a terminal's escape codes in it cannot
 * redraw the lines of the report above (a forged VERIFIED). JSON reports escape them instead.
 */
public final class TerminalText {
    private TerminalText() {}

    public static String printable(String text) {
        StringBuilder b = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            b.append(c < 0x20 || c == 0x7F || (c >= 0x80 && c < 0xA0) ? '?' : c);
        }
        return b.toString();
    }
}
