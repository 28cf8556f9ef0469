package org.gamecert.verifier.cli;

import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.format.Header;
import org.gamecert.verifier.kernel.format.Payload;

/** SPEC §7.5 board text and a small diagram, for reports. Colours are not stored: see below. */
final class PositionText {
    private PositionText() {}

    /**
     * Othello: the side to move is written X (mover/opponent form: a certificate does not record
     * colours). Connect Four and NoGo: colours follow from the disc counts (X moved first).
     */
    static String text(Result r, long mover, long opp) {
        return text(r.header.family, r.header.width, r.header.height, mover, opp);
    }

    static String text(Header h, long mover, long opp) {
        return text(h.family, h.width, h.height, mover, opp);
    }

    static String text(int family, int width, int height, long mover, long opp) {
        StringBuilder sb = new StringBuilder();
        char me = 'X', other = 'O';
        if (family != 1 && family != 4 && Long.bitCount(opp) > Long.bitCount(mover)) {
            me = 'O';
            other = 'X';
        }
        if (family == 1 || family == 4) { // LOA as Othello: rows from the top, X to move
            int n = width;
            for (int i = 0; i < n * n; i++) sb.append(cell(mover, opp, i, me, other));
        } else if (family == 3) {
            for (int i = 0; i < width; i++) sb.append(cell(mover, opp, i, me, other));
        } else {
            int w = width, h = height;
            for (int row = h - 1; row >= 0; row--)
                for (int c = 0; c < w; c++) sb.append(cell(mover, opp, c * (h + 1) + row, me, other));
        }
        return sb.append(' ').append(me).toString();
    }

    static String diagram(Result r, long mover, long opp, String indent) {
        String t = text(r, mover, opp);
        StringBuilder sb = new StringBuilder();
        if (r.header.family == 1 || r.header.family == 4) {
            int n = r.header.width;
            sb.append(indent).append("  ");
            for (int c = 0; c < n; c++) sb.append(' ').append((char) ('a' + c));
            sb.append('\n');
            for (int row = 0; row < n; row++) {
                sb.append(indent).append(String.format("%2d", row + 1));
                for (int c = 0; c < n; c++) sb.append(' ').append(t.charAt(row * n + c));
                sb.append('\n');
            }
        } else if (r.header.family == 3) {
            sb.append(indent).append("  ").append(t, 0, r.header.width).append('\n');
        } else {
            int w = r.header.width, h = r.header.height;
            for (int row = 0; row < h; row++) {
                sb.append(indent).append(' ');
                for (int c = 0; c < w; c++) sb.append(' ').append(t.charAt(row * w + c));
                sb.append('\n');
            }
            sb.append(indent).append(' ');
            for (int c = 0; c < w; c++) sb.append(' ').append((c + 1) % 10);
            sb.append('\n');
        }
        sb.append(indent).append(t.charAt(t.length() - 1)).append(" to move\n");
        return sb.toString();
    }

    private static char cell(long mover, long opp, int bit, char me, char other) {
        return ((mover >>> bit) & 1) != 0 ? me : ((opp >>> bit) & 1) != 0 ? other : '-';
    }

    static String moveName(Result r, int code) {
        if (code < 0) return "-";
        if (r.header.family == 1) return "" + (char) ('a' + code % r.header.width) + (code / r.header.width + 1);
        if (r.header.family == 4) { // the root's move (symmetry 0: its own orientation)
            org.gamecert.verifier.kernel.rules.LoaRules g = new org.gamecert.verifier.kernel.rules.LoaRules(r.header.width);
            if (((g.legalMoveCodes(r.header.rootMover, r.header.rootOpponent) >>> code) & 1) == 0) return "code " + code;
            return g.moveText(r.header.rootMover, r.header.rootOpponent, code);
        }
        return Integer.toString(code + 1);
    }

    /**
     * Whether the header's root is exactly the game's initial position (SPEC §7.1, §7.3): Othello's
     * four centre discs with Black (the first player) to move, Connect Four's and NoGo's empty board. A
     * certificate proves the value of its root, whatever it is; only this makes it "solved from the
     * start" (a symmetric image of the start is another root, reported as not the initial one).
     */
    static boolean isInitialPosition(Result r) {
        return isInitialPosition(r.header.family, r.header.width, r.header.rootMover, r.header.rootOpponent);
    }

    static boolean isInitialPosition(int family, int width, long rootMover, long rootOpponent) {
        long mover = 0, opp = 0;
        if (family == 1) {
            int n = width, h = n / 2;
            mover = 1L << ((h - 1) * n + h) | 1L << (h * n + h - 1); // Black: (h-1, h) and (h, h-1)
            opp = 1L << ((h - 1) * n + h - 1) | 1L << (h * n + h);    // White: (h-1, h-1) and (h, h)
        } else if (family == 4) {
            long[] start = new org.gamecert.verifier.kernel.rules.LoaRules(width).start();
            mover = start[0];
            opp = start[1];
        }
        return rootMover == mover && rootOpponent == opp;
    }

    static String game(Result r) {
        if (r.header == null) return null;
        return game(r.header.family, r.header.width, r.header.height);
    }

    static String game(int family, int width, int height) {
        if (family == 3) return "nogo:1x" + width;
        if (family == 4) return "loa:" + width + "x" + height;
        return (family == 1 ? "othello:" : "connect4:") + width + "x" + height;
    }

    /**
     * semi-strong, semi-strong with optimal moves (mode 5: what it proves, SPEC §12), weak (modes
     * 2 and 3) or weak-ranked; "part" added for a part of a composite (SPEC §15).
     */
    static String mode(Result r) {
        if (r.header == null) return null;
        return mode(r.header.baseMode) + (r.header.part ? " part" : "");
    }

    static final String MODE_5 = "semi-strong (optimal moves; tie-break proven at P and P' only)";

    static String mode(int baseMode) {
        return baseMode == 1 ? "semi-strong" : baseMode == 5 ? MODE_5 : baseMode == 4 ? "weak-ranked"
                : "weak";
    }

    /**
     * Whether a claim (SPEC §15.1) gives the root's value: an exact kind, or bounds with lo = hi.
     * Only such a claim, proven at the game's initial position, solves the game (§12).
     */
    static boolean exactClaim(int kinds, int lo, int hi) {
        return (kinds & (Payload.P | Payload.AP | Payload.PP)) != 0 || ((kinds & Payload.C) != 0
                && (kinds & Payload.A) != 0 && lo == hi);
    }

    /** What a proven claim says of the root's value: "the value +2", "a lower bound of -12", ... */
    static String provenValue(int kinds, int lo, int hi) {
        if (exactClaim(kinds, lo, hi)) return "the value " + String.format("%+d", lo);
        if (kinds == Payload.C) return "a lower bound of " + String.format("%+d", lo);
        if (kinds == Payload.A) return "an upper bound of " + String.format("%+d", hi);
        return "the bounds [" + String.format("%+d", lo) + ", " + String.format("%+d", hi) + "]";
    }

    /** A claim about a root (SPEC §15.1), e.g. "A' value +2", "C: value >= +1", "C, A: value in [-1, +1]". */
    static String claim(int kinds, int lo, int hi) {
        String names = org.gamecert.verifier.kernel.Kinds.kindName(kinds);
        names = names.substring(1, names.length() - 1); // without the braces
        if ((kinds & (Payload.P | Payload.AP | Payload.PP)) != 0) return names + " value " + String.format("%+d", lo);
        if (kinds == Payload.C) return names + ": value >= " + String.format("%+d", lo);
        if (kinds == Payload.A) return names + ": value <= " + String.format("%+d", hi);
        if (lo == hi) return names + ": value " + String.format("%+d", lo);
        return names + ": value in [" + String.format("%+d", lo) + ", " + String.format("%+d", hi) + "]";
    }
}
