package org.gamecert.producer.cert;

/**
 * The entries of one layer, in key order: canonical position, kind set, values (exact value in
 * value1; or lower bound in value1 and upper bound in value2), and stored move.
 */
public final class LayerEntries {
    public final int layer;
    public final int count;
    public final long[] mover, opponent;
    public final byte[] kinds, value1, value2, move;

    public LayerEntries(int layer, int count) {
        this.layer = layer; this.count = count;
        mover = new long[count]; opponent = new long[count];
        kinds = new byte[count]; value1 = new byte[count]; value2 = new byte[count]; move = new byte[count];
    }

    /** One layer's entries from parts that follow each other in key order. */
    public static LayerEntries concat(int layer, java.util.List<LayerEntries> parts) {
        int n = 0;
        for (LayerEntries p : parts) n += p.count;
        LayerEntries e = new LayerEntries(layer, n);
        int at = 0;
        for (LayerEntries p : parts) {
            e.copyFrom(p, 0, at, p.count);
            at += p.count;
        }
        return e;
    }

    /** Copies {@code n} entries of {@code src} from {@code from} to this layer's {@code to}. */
    public void copyFrom(LayerEntries src, int from, int to, int n) {
        System.arraycopy(src.mover, from, mover, to, n);
        System.arraycopy(src.opponent, from, opponent, to, n);
        System.arraycopy(src.kinds, from, kinds, to, n);
        System.arraycopy(src.value1, from, value1, to, n);
        System.arraycopy(src.value2, from, value2, to, n);
        System.arraycopy(src.move, from, move, to, n);
    }

    public int lowerBound(int i, int uMin) {
        int k = kinds[i];
        if (Kinds.isExact(k)) return value1[i];
        return (k & Kinds.C) != 0 ? value1[i] : uMin;
    }

    public int upperBound(int i, int uMax) {
        int k = kinds[i];
        if (Kinds.isExact(k)) return value1[i];
        return (k & Kinds.A) != 0 ? value2[i] : uMax;
    }

    /** Binary search by key; -1 if absent. */
    public int find(long m, long o) {
        int lo = 0, hi = count - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = org.gamecert.producer.game.Game.compareKeys(mover[mid], opponent[mid], m, o);
            if (c == 0 && opponent[mid] == o) return mid;
            if (c < 0) lo = mid + 1; else hi = mid - 1;
        }
        return -1;
    }
}
