package org.gamecert.verifier.kernel;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import org.gamecert.verifier.kernel.format.Payload;

/**
 * What the legacy Kernel.decode stamps a payload with: the block its entries were decoded from,
 * the chain value before it, and its seal (Kernel.seal). Held here, beside the payload, since the
 * main tree's Payload has no such fields (the sequential kernel needs none of them). A payload
 * never stamped has block -1, no chain value and seal 0, as a new Payload had.
 */
public final class Stamp {
    /** By payload: Payload keeps Object's equals and hashCode, so this compares by identity. */
    private static final Map<Payload, Stamp> OF = Collections.synchronizedMap(new WeakHashMap<>());

    public long block = -1;
    byte[] chainBefore;
    long seal;

    /** p's stamp (an unstamped one on first use). */
    public static Stamp of(Payload p) {
        return OF.computeIfAbsent(p, q -> new Stamp());
    }
}
