package org.gamecert.verifier.kernel.format;

import org.gamecert.verifier.kernel.Rule;

/**
 * The HEADER record of SPEC §4, parsed and checked field by field in table order (R-HDR-1): each
 * field as it is read (running past the content fails at that field), the content length once
 * info_len is known.
 */
public final class Header implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    public static final int OTHELLO = 1, CONNECT_FOUR = 2, NOGO = 3, LOA = 4;
    public static final int SEMI_STRONG = 1, WEAK = 2;
    /** Mode 4: weak, layers are ranks (SPEC §9.2, since 1.4); any game, never a part. */
    public static final int WEAK_RANKED = 4;
    /** Mode 3: weak, with endgame leaves (SPEC §9.1); leaf_empties follows the mode byte. */
    public static final int WEAK_LEAVES = 3, MAX_LEAF_EMPTIES = 6;
    /**
     * Mode 5: semi-strong, optimal moves (SPEC §9, since 1.5.0): as mode 1 but an A' entry proves
     * an optimal move, not the earliest one (R-AP-2 in place of R-TB-1). Not LOA, never a part.
     */
    public static final int SEMI_STRONG_OPTIMAL = 5;

    /** The mode byte of a part (SPEC §15): the base mode plus this bit. */
    public static final int PART = 0x80;

    public final int version, family, width, height, utility, symmetry, mode;
    /** mode without the part bit: 1 semi-strong, 2 weak, 3 weak with leaves, 4, 5. */
    public final int baseMode;
    /** Base mode 1 or 5: exact entries, a region (everything SPEC says of semi-strong). */
    public final boolean semiStrong;
    /** A part of a composite (SPEC §15.1): modes 0x81, 0x82, 0x83. */
    public final boolean part;
    /** L of mode 3 (positions with at most L empty cells are leaves); 0 in modes 1 and 2. */
    public final int leafEmpties;
    public final int[] tb;
    public final long rootMover, rootOpponent;
    public final int rootValue;
    /**
     * The claim about the root (SPEC §15.1): kinds and upper end, read in a part; otherwise the
     * claim SPEC §15.3 gives a certificate that is not a part: {P} in mode 1, {C, A} in modes 2
     * and 3, with root_upper = root_value.
     */
    public final int rootKinds, rootUpper;
    public final int maxBlockBytes, maxBlockEntries;
    public final byte[] info;

    private Header(Reader r, int contentLength) throws FormatException {
        byte[] magic = r.bytes(4, "magic");
        if (magic[0] != 'G' || magic[1] != 'S' || magic[2] != 'C' || magic[3] != 'F')
            throw fail("magic is not GSCF");
        version = (int) r.u(2, "version");
        if (version != 1)
            throw fail("version " + version + " (this verifier knows version 1 only)");
        family = (int) r.u(1, "family");
        width = (int) r.u(1, "width");
        height = (int) r.u(1, "height");
        if (family == OTHELLO) {
            if (width != height || (width != 4 && width != 6 && width != 8))
                throw fail("Othello " + width + "x" + height + " is not a game of SPEC §7.1");
        } else if (family == CONNECT_FOUR) {
            if (width < 1 || height < 1 || width * (height + 1) > 64)
                throw fail("Connect Four " + width + "x" + height + " is not a game of SPEC §7.3");
        } else if (family == NOGO) {
            if (height != 1 || width < 1 || width > 64)
                throw fail("NoGo " + height + "x" + width + " is not a game of SPEC §7.6");
        } else if (family == LOA) {
            if (width != height || width < 4 || width > 6)
                throw fail("LOA " + width + "x" + height + " is not a game of SPEC §7.7");
        } else {
            throw fail("unknown game family " + family);
        }
        utility = (int) r.u(1, "utility");
        int familyUtility = family == OTHELLO ? 1 : 2; // Connect Four and NoGo: win/draw/loss
        if (utility != familyUtility)
            throw fail("utility " + utility + " is not the family's (" + familyUtility + ")");
        symmetry = (int) r.u(1, "symmetry");
        int familySymmetry = family == OTHELLO ? 1 : family == LOA ? 0 : 2; // C4, NoGo: mirror
        if (symmetry != 0 && symmetry != familySymmetry)
            throw fail("symmetry " + symmetry + " is not 0 or the family's ("
                    + familySymmetry + ")");
        mode = (int) r.u(1, "mode");
        part = (mode & PART) != 0;
        baseMode = mode & ~PART;
        if (baseMode != SEMI_STRONG && baseMode != WEAK && baseMode != WEAK_LEAVES
                && mode != WEAK_RANKED && mode != SEMI_STRONG_OPTIMAL)
            throw fail("mode " + mode);
        if (family == LOA && mode != WEAK_RANKED)
            throw fail("mode " + mode + ": LOA certificates are weak-ranked (mode 4)");
        semiStrong = baseMode == SEMI_STRONG || baseMode == SEMI_STRONG_OPTIMAL; // 2, 3, 4: weak
        if (baseMode == WEAK_LEAVES) {
            leafEmpties = (int) r.u(1, "leaf_empties");
            if (leafEmpties < 1 || leafEmpties > MAX_LEAF_EMPTIES)
                throw fail("leaf_empties " + leafEmpties + " outside 1.." + MAX_LEAF_EMPTIES);
        } else {
            leafEmpties = 0;
        }
        int tbLen = (int) r.u(1, "tb_len");
        int codes = family == OTHELLO ? width * width : family == LOA ? 64 : width;
        if (tbLen != codes) throw fail("tb_len " + tbLen + ", expected " + codes);
        tb = new int[tbLen];
        boolean[] seen = new boolean[tbLen];
        for (int i = 0; i < tbLen; i++) {
            int m = (int) r.u(1, "tb");
            if (m >= tbLen || seen[m]) throw fail("tb is not a permutation of 0.." + (tbLen - 1));
            seen[m] = true;
            tb[i] = m;
        }
        rootMover = r.u(8, "root_mover");
        rootOpponent = r.u(8, "root_opponent");
        rootValue = (byte) r.u(1, "root_value");
        int uMax = family == OTHELLO ? width * width : 1;
        if (rootValue < -uMax || rootValue > uMax)
            throw fail("root_value " + rootValue + " outside the utility range");
        if (part) {
            rootKinds = (int) r.u(1, "root_kinds");
            rootUpper = (byte) r.u(1, "root_upper");
            checkClaim(-uMax, uMax);
        } else {
            rootKinds = semiStrong ? Payload.P : Payload.C | Payload.A; // weak: 2..4
            rootUpper = rootValue;
        }
        long mbb = r.u(4, "max_block_bytes");
        if (mbb < 1 || mbb > (1 << 24)) throw fail("max_block_bytes " + mbb + " outside 1..2^24");
        maxBlockBytes = (int) mbb;
        long mbe = r.u(4, "max_block_entries");
        if (mbe < 1 || mbe > (1 << 20)) throw fail("max_block_entries " + mbe + " outside 1..2^20");
        maxBlockEntries = (int) mbe;
        int infoLen = (int) r.u(2, "info_len");
        if (infoLen > 4096) throw fail("info_len " + infoLen + " > 4096");
        info = r.bytes(infoLen, "info");
        int fixed = 40 + (baseMode == WEAK_LEAVES ? 1 : 0) + (part ? 2 : 0);
        if (contentLength != fixed + tbLen + infoLen)
            throw fail("content length " + contentLength + " != " + fixed
                    + " + tb_len + info_len = " + (fixed + tbLen + infoLen));
    }

    /** R-HDR-1 of a part's root_kinds and root_upper (SPEC §15.1), in that order. */
    private void checkClaim(int uMin, int uMax) throws FormatException {
        if (!Payload.validKind(rootKinds))
            throw fail(String.format("root_kinds 0x%02X is not a valid kind set", rootKinds));
        boolean exact = Payload.isExact(rootKinds);
        if (exact != (baseMode == SEMI_STRONG))
            throw fail(String.format("root_kinds 0x%02X: a part of mode %d claims %s", rootKinds,
                    baseMode, baseMode == SEMI_STRONG ? "an exact set" : "a bound set"));
        if (rootUpper < uMin || rootUpper > uMax)
            throw fail("root_upper " + rootUpper + " outside the utility range");
        boolean holds = exact ? rootUpper == rootValue
                : rootKinds == Payload.C ? rootUpper == uMax
                : rootKinds == Payload.A ? rootValue == uMin
                : rootValue <= rootUpper;
        if (!holds)
            throw fail("root_value " + rootValue + " and root_upper " + rootUpper
                    + " are not a claim of root_kinds " + String.format("0x%02X", rootKinds));
    }

    /** Parses header content (the HEADER frame's content, without its 8-byte frame header). */
    public static Header parse(byte[] content) throws FormatException {
        return new Header(new Reader(content), content.length);
    }

    private static FormatException fail(String message) {
        return new FormatException(Rule.HDR_1, message);
    }

    /** The fields in order, each checked to lie within the content. */
    private static final class Reader {
        final byte[] b;
        int pos;

        Reader(byte[] b) {
            this.b = b;
        }

        byte[] bytes(int n, String field) throws FormatException {
            if (pos + n > b.length) throw fail("field " + field + " runs past the header content");
            pos += n;
            return java.util.Arrays.copyOfRange(b, pos - n, pos);
        }

        /** An unsigned little-endian field of n bytes. */
        long u(int n, String field) throws FormatException {
            byte[] x = bytes(n, field);
            long v = 0;
            for (int i = n - 1; i >= 0; i--) v = v << 8 | (x[i] & 0xFF);
            return v;
        }
    }
}
