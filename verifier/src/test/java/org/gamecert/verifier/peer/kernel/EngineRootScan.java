package org.gamecert.verifier.peer.kernel;

/**
 * What an engine's scan of the roots hands PeerKernel.conclude, computed as the engine computes it:
 * for the lowest table's records as the roots (no named root), or for a named root's one record.
 */
public final class EngineRootScan {
    private EngineRootScan() {}

    /** The conclusion with the lowest table's records as the roots. */
    public static PeerKernel.Conclusion concludeLowest(PeerKernel k, byte[] lowest) {
        long count = lowest.length / PeerFormat.RECORD_BYTES;
        return conclude(k, count, count == 0 ? null : fields(lowest, 0), lowest);
    }

    /** The conclusion for count root records of which the first is first (a named root's). */
    public static PeerKernel.Conclusion concludeNamed(PeerKernel k, long count, long[] first) {
        long unsettled = first != null && unsettled(first) ? 1 : 0;
        return k.conclude(count, first, unsettled, unsettled > 0 ? first : null);
    }

    /** As the engine would, with count and first as given (a test may falsify them). */
    public static PeerKernel.Conclusion conclude(PeerKernel k, long count, long[] first, byte[] lowest) {
        long unsettled = 0;
        long[] firstUnsettled = null;
        for (int i = 0; i + PeerFormat.RECORD_BYTES <= lowest.length; i += PeerFormat.RECORD_BYTES) {
            long[] f = fields(lowest, i);
            if (!unsettled(f)) continue;
            unsettled++;
            if (firstUnsettled == null) firstUnsettled = f;
        }
        return k.conclude(count, first, unsettled, firstUnsettled);
    }

    static boolean unsettled(long[] f) {
        return PeerKernel.provenLower((int) f[2], (int) f[3]) != PeerKernel.provenUpper((int) f[2], (int) f[4]);
    }

    /** {mover, opp, kind, lb, ub} of the record at byte offset i. */
    public static long[] fields(byte[] table, int i) {
        long[] pos = new long[2];
        PeerFormat.decodeKey(table, i, pos);
        return new long[] {pos[0], pos[1], PeerFormat.symbol(table[i + 9]),
            PeerFormat.symbol(table[i + 10]) - PeerFormat.MAX_VALUE, PeerFormat.symbol(table[i + 11]) - PeerFormat.MAX_VALUE};
    }
}
