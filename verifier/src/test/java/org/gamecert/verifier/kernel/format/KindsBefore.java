package org.gamecert.verifier.kernel.format;

import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import org.gamecert.verifier.kernel.Rule;

/**
 * For the legacy kernel kept in the test tree (kernel/Kernel): the kind bytes of a part's block
 * that passed R-KIND-1 and R-KIND-2 before its decoding failed, which it counts for R-OPEN-2.
 * The main tree's Payload.decode checks R-OPEN-2 itself as it reads each kind and hands out no
 * such bytes; the legacy kernel decodes ahead of its count (uncapped), so it notes them here, by
 * failure, and reads them when it takes the failure in file order.
 */
public final class KindsBefore {
    /** By failure: a Throwable keeps Object's equals and hashCode, so by identity. */
    private static final Map<FormatException, byte[]> OF =
            Collections.synchronizedMap(new WeakHashMap<>());

    private KindsBefore() {}

    /** Notes the kinds that passed before e, the failure of decoding count entries of raw. */
    public static void note(byte[] raw, int count, Payload.EntryFormatException e) {
        OF.put(e, of(raw, count, e));
    }

    /** The kinds noted for e, or null (none noted: not a part's payload, or not a payload's). */
    public static byte[] of(FormatException e) {
        return OF.get(e);
    }

    private static byte[] of(byte[] raw, int count, Payload.EntryFormatException e) {
        String rule = e.rule();
        if (rule.equals(Rule.ENC_1) || rule.equals(Rule.ENC_3)
                || e.getMessage().startsWith("keys section"))
            return new byte[0]; // the keys section failed: no kind was read
        int[] pos = {0};
        try {
            for (int i = 0; i < 2 * count; i++) Payload.varint(raw, pos, i / 2);
        } catch (FormatException x) {
            throw new IllegalStateException("a keys section that decoded once", x);
        }
        int p = pos[0];
        // the kinds are checked in order up to a failing one; any later failure: all present
        boolean atKind = rule.equals(Rule.KIND_1) || rule.equals(Rule.KIND_2);
        int n = atKind ? e.entry : Math.min(count, raw.length - p);
        return Arrays.copyOfRange(raw, p, p + n);
    }
}
