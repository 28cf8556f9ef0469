package org.gamecert.producer.cert;

/**
 * What a part of a composite proves of its root (SPEC §15.1): a kind set and the interval
 * [lo, hi] (lo = hi = the value for an exact set). It is also what an open entry claims, so the
 * part that discharges an open entry is made with the entry's own claim.
 */
public final class Claim {
    public final int kinds, lo, hi;

    public Claim(int kinds, int lo, int hi) {
        this.kinds = kinds;
        this.lo = lo;
        this.hi = hi;
    }

    /** The claim of an open entry: its kind set without O and its values (SPEC §5.4). */
    public static Claim ofEntry(int kinds, int value1, int value2, int uMin, int uMax) {
        int set = kinds & ~Kinds.OPEN;
        if (Kinds.isExact(set)) return new Claim(set, value1, value1);
        return new Claim(set, (set & Kinds.C) != 0 ? value1 : uMin, (set & Kinds.A) != 0 ? value2 : uMax);
    }

    public boolean exact() { return Kinds.isExact(kinds); }

    /** The certificate mode that proves it: exact kinds need a semi-strong part. */
    public Extractor.Mode mode() { return exact() ? Extractor.Mode.SEMI_STRONG : Extractor.Mode.WEAK; }

    @Override public String toString() {
        return exact() ? Kinds.text(kinds) + " " + lo
                : Kinds.text(kinds) + ((kinds & Kinds.C) != 0 ? " >= " + lo : "") + ((kinds & Kinds.A) != 0 ? " <= " + hi : "");
    }
}
