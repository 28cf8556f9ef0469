package org.gamecert.verifier.kernel;

import java.util.Arrays;
import java.util.List;

/**
 * The distinct terminal positions of one layer, counted in partitions of their keys (SPEC §10.3,
 * term_d; §11.1), so that no one place holds them all. A slice set up with
 * {@link SliceCheck.Setup}'s partitions sends each terminal key it names (once a move that
 * reaches it, in R or read for a bound) to the partition a keyed hash of the key gives it, and
 * reports, in place of the keys, the multiset hash of what it sent (each key with its layer,
 * partition and set). The engine routes the keys; one TerminalCount per partition takes those
 * routed to it, counts the distinct keys of R (terminals) and those read for a bound but not in R
 * (proof only), and reports the multiset hash of what it took. The Combiner requires, layer by
 * layer, every partition once and the sums sent and taken equal, then adds the partitions'
 * counts: since a key's partition is a function of the key, a key lands in one partition only,
 * and the distinct counts add up.
 *
 * <p>A key dropped, repeated, altered or moved to another partition changes the taken sum (a key
 * another partition was sent is refused here outright): an engine fault, as for child facts
 * (the binding of FactHash: Blum et al. 1991, Clarke et al. 2003; keyed by the map's secret).
 * Sequential; one thread; calls no engine code; the keys it is given are taken one by one.
 */
public final class TerminalCount {
    /** Partitions a layer's terminal keys may be counted in. */
    public static final int MAX_PARTITIONS = 1 << 16;

    private final FileMap map;
    private final int li, partition, partitions;
    /** Made at the first key (or the report): a count made ahead of its thread holds none. */
    private PairSet terminals, proof;
    private final int expectedTerminals, expectedProof;
    private long takenSum;
    private boolean done;
    private final FaultLatch latch = new FaultLatch();
    /** Where the report is left for the Combiner that made this count (Combiner.terminalCount). */
    final Combiner.Made made = new Combiner.Made();

    /**
     * The counter of partition partition (of partitions) of layer li's terminal keys, whose sets
     * (made at its first key) have room for about expectedTerminals keys of R and expectedProof
     * keys read for a bound (size hints, nothing more: on `44` the second are three times the
     * first).
     */
    public TerminalCount(FileMap map, int li, int partition, int partitions,
            int expectedTerminals, int expectedProof) {
        map.requireWhole();
        if (li < 0 || li >= map.layers() || partitions < 1 || partitions > MAX_PARTITIONS
                || partition < 0 || partition >= partitions)
            throw new EngineFault("a terminal count for partition " + partition + " of "
                    + partitions + " of layer " + li);
        this.map = map;
        this.li = li;
        this.partition = partition;
        this.partitions = partitions;
        this.expectedTerminals = Math.max(0, Math.min(expectedTerminals, 1 << 24));
        this.expectedProof = Math.max(0, Math.min(expectedProof, 1 << 24));
    }

    /**
     * One key as a slice routed it (route from SliceCheck.terminalKeys: partition and set). A key
     * of another partition is an engine fault: it would be counted in two places.
     */
    public void take(long occ, long mover, long route) {
        latch.begin();
        if (done) throw latch.fault("a terminal key after the count's report");
        boolean isProof = isProof(route);
        if (route < 0 || partitionOf(route) != partition
                || partition(map.partitionKey, occ, mover, partitions) != partition)
            throw latch.fault("terminal key routed to partition " + partition
                    + " of layer " + map.discs(li) + " that belongs to another");
        makeSets();
        (isProof ? proof : terminals).add(occ, mover);
        takenSum = FactHash.add(takenSum, element(map, li, partition, occ, mover, isProof));
        latch.done();
    }

    /** The partition's counts (SPEC §10.3): distinct keys of R, and read for a bound only. */
    public Report report() {
        latch.begin();
        if (done) throw latch.fault("a terminal count reported twice");
        done = true;
        makeSets();
        Report r = new Report(map.fingerprint(), li, partition, partitions, terminals.size(),
                proof.countNotIn(terminals), takenSum, map.cluster);
        made.report = r;
        return latch.done(r);
    }

    private void makeSets() {
        if (terminals != null) return;
        terminals = new PairSet(expectedTerminals);
        proof = new PairSet(expectedProof);
    }

    // ------------------------------------------------------------ a slice's routes

    /**
     * A slice's side (SliceCheck.Setup's partitions): each terminal key as the slice meets it,
     * once a move that reaches it (the partitions deduplicate: a slice-wide set cost more than the
     * repeats it saved), with its route (partition and set), and the multiset hash of what it
     * sends each partition, each key hashed with its layer, partition and set.
     */
    static final class Routes {
        private final FileMap map;
        private final int li, partitions;
        private long[] occ = new long[64], mover = new long[64], route = new long[64];
        private int n;
        private long sum;

        Routes(FileMap map, int li, int partitions) {
            this.map = map;
            this.li = li;
            this.partitions = partitions;
        }

        /** Room for n keys in all, made once (growing by doubling cost more than the keys). */
        void reserve(int n) {
            if (n <= occ.length) return;
            occ = Arrays.copyOf(occ, n);
            mover = Arrays.copyOf(mover, n);
            route = Arrays.copyOf(route, n);
        }

        /** One key routed (of R, or read for a bound only), and its hash summed. */
        void add(long o, long m, boolean proof) {
            if (n == occ.length) {
                occ = Arrays.copyOf(occ, 2 * n);
                mover = Arrays.copyOf(mover, 2 * n);
                route = Arrays.copyOf(route, 2 * n);
            }
            int q = partition(map.partitionKey, o, m, partitions);
            occ[n] = o;
            mover[n] = m;
            route[n++] = TerminalCount.route(q, proof);
            sum = FactHash.add(sum, element(map, li, q, o, m, proof));
        }

        /**
         * {occ, mover, route} of every key routed: the arrays themselves when they are full (as
         * they are when every terminal move routed a key), else copies as long as the keys. The
         * kernel reads them no more: the sum of what they send is taken as each key is added.
         */
        long[][] keys() {
            if (n == occ.length) return new long[][] {occ, mover, route};
            return new long[][] {Arrays.copyOf(occ, n), Arrays.copyOf(mover, n),
                Arrays.copyOf(route, n)};
        }

        int partitions() {
            return partitions;
        }

        /** The multiset hash of every key routed. */
        long sum() {
            return sum;
        }
    }

    // ------------------------------------------------------------ the Combiner's side

    /**
     * A layer's terminal keys counted in partitions (SPEC §10.3, §11.1): every partition once,
     * the same partition count as the slices', and the keys the slices sent equal to those the
     * partitions took. Returns {distinct keys of R, keys read for a bound only}.
     */
    static long[] combine(FileMap map, int li, List<SliceReport> slices, List<Report> counts,
            int partitions, FaultLatch latch) {
        int discs = map.discs(li);
        long sentKeys = 0, takenKeys = 0, distinct = 0, proofOnlyKeys = 0;
        for (SliceReport r : slices)
            sentKeys = FactHash.add(sentKeys, FactHash.reduce(r.terminalSum));
        if (counts.size() != partitions)
            throw latch.fault(counts.size() + " terminal counts for layer " + discs
                    + ", whose slices sent their keys to " + partitions + " partitions");
        boolean[] seen = new boolean[partitions];
        for (Report c : counts) {
            if (!c.of(map.fingerprint()) || c.li != li
                    || c.partitions != partitions || c.partition < 0
                    || c.partition >= partitions || seen[c.partition])
                throw latch.fault("a terminal count of layer " + discs + " that no"
                        + " counter of this check made for it, or a partition counted twice");
            seen[c.partition] = true;
            takenKeys = FactHash.add(takenKeys, FactHash.reduce(c.takenSum));
            distinct += c.distinct;
            proofOnlyKeys += c.proofOnly;
        }
        // every key a slice sent was taken by its partition's counter, once (SPEC §11.1)
        if (sentKeys != takenKeys)
            throw latch.fault("the terminal keys the partitions of layer " + discs
                    + " took are not those its slices sent (dropped, repeated, moved or altered)");
        return new long[] {distinct, proofOnlyKeys};
    }

    // ------------------------------------------------------------ routes and hashes

    /** The route of a key: its partition, and whether it is sent as read for a bound. */
    static long route(int partition, boolean proof) {
        return (long) partition << 1 | (proof ? 1 : 0);
    }

    /** The partition a route names (the engine sends the key there). */
    public static int partitionOf(long route) {
        return (int) (route >>> 1);
    }

    /** Whether a route sends the key as read for a bound (term_d), not as a key of R. */
    public static boolean isProof(long route) {
        return (route & 1) != 0;
    }

    /**
     * The partition of a key: a hash keyed by the map's partition key (so that no file can aim its
     * keys at one partition; not the fact key: the engine sees partitions), the key's two words
     * one round each, mapped onto [0, partitions) by its top 32 bits.
     */
    static int partition(long key, long occ, long mover, int partitions) {
        long h = (occ ^ key ^ 0x7465726D696E616CL) * 0x9E3779B97F4A7C15L;
        h = (h ^ h >>> 32 ^ mover) * 0xD6E8FEB86659FD93L;
        h ^= h >>> 29;
        return (int) ((h >>> 32) * partitions >>> 32); // the top 32 bits scaled: no division
    }

    /**
     * The multiset hash of one key sent to a partition: SipHash (FactHash.sip) under the map's
     * fact key of the layer and partition, occ, mover, and the set (its last word's low byte 0xE0
     * or 0xE1, which no fact's term has).
     */
    static long element(FileMap map, int li, int partition, long occ, long mover, boolean proof) {
        long where = (long) li << 32 | partition, what = TERMINAL_WORD | (proof ? 0xE1 : 0xE0);
        // a keyed PRF (FactHash.sip), summed modulo 2^61 - 1 as the facts are
        return FactHash.reduce(FactHash.sip(map.factKey0, map.factKey1, where, occ, mover, what));
    }

    private static final long TERMINAL_WORD = 0x5445524DL << 16; // "TERM", within 7 bytes

    /**
     * What a partition's counter tells the Combiner: which layer and partition, against which
     * map, its counts and the multiset hash of the keys it took. Made only by the kernel;
     * immutable; taken in one JVM only as the very object a count the Combiner made reported.
     */
    public static final class Report implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        private final byte[] map;
        final int li, partition, partitions;
        final long distinct, proofOnly, takenSum;
        /** Made for a cluster: only then may it be serialized (its sum is keyed by the map's K). */
        private final boolean cluster;

        Report(byte[] map, int li, int partition, int partitions, long distinct, long proofOnly,
                long takenSum, boolean cluster) {
            this.map = map.clone();
            this.li = li;
            this.partition = partition;
            this.partitions = partitions;
            this.distinct = distinct;
            this.proofOnly = proofOnly;
            this.takenSum = takenSum;
            this.cluster = cluster;
        }

        private void writeObject(java.io.ObjectOutputStream out) throws java.io.IOException {
            if (!cluster) throw new java.io.NotSerializableException("a count made in one JVM");
            out.defaultWriteObject();
        }

        boolean of(byte[] fingerprint) {
            return Arrays.equals(map, fingerprint);
        }
    }
}
