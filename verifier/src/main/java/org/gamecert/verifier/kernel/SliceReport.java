package org.gamecert.verifier.kernel;

/**
 * What a SliceCheck tells the Combiner about its slice (SPEC §11.1): which blocks and entries of
 * which layer it checked, against which FileMap (fingerprint), the key it assumed before its first
 * entry and its last key, its first violation, its part of the tally of SPEC §10, and the sums of
 * the child facts it sent and took. Made only by the kernel; immutable; an engine moves it.
 */
public final class SliceReport implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private final byte[] map;
    final int li, firstBlock, endBlock;
    final long base, count;
    final Violation first;
    final boolean hasPrevious;
    final long previousOcc, previousMover, lastOcc, lastMover;
    final long region, aux, unreached, firstUnreached, unreachedMover, unreachedOpponent;
    private final long[] terminals, proofTerminals;
    /** Terminal keys counted in this many partitions (TerminalCount), the hash of those sent. */
    final int terminalPartitions;
    final long terminalSum;
    final long sentSum, takenSum;
    final boolean hasRoot;
    final int rootKind, rootLo, rootHi, rootMove;
    /** A part: the open entries before the slice (assumed), in it, those kept (file order). */
    final long openBefore, openCount;
    final OpenEntries open;
    final boolean unnamedKept;
    /** Keys of R for a union census (occ, mover pairs), or null: not asked; over: too many. */
    private final long[] regionKeys;
    final boolean regionKeysOver;
    /** Every entry of the slice was decoded (so every fact for it was taken and counted). */
    final boolean decodedAll;
    /** --all: the block that failed to decode (it ends the check), the violations kept, counts. */
    final Violation fatal;
    private final Violation[] kept;
    private final String[] countedRules;
    private final long[] counts;
    /** Made for a map read for a cluster (only then may this report be serialized). */
    private final boolean cluster;
    /** How the slice was set up (setupTag): the Combiner takes only reports set up as it is. */
    private final byte[] setup;
    /** SHA-256 of the map's seal key and every field: the Combiner takes no report without it. */
    private final byte[] seal;

    SliceReport(byte[] map, int li, int firstBlock, int endBlock, long base, long count,
            Violation first, boolean hasPrevious, long previousOcc, long previousMover,
            long lastOcc, long lastMover, long region, long aux, long unreached,
            long firstUnreached, long unreachedMover, long unreachedOpponent, long[] terminals,
            long[] proofTerminals, int terminalPartitions, long terminalSum, long sentSum,
            long takenSum, boolean hasRoot, int rootKind,
            int rootLo, int rootHi, int rootMove, long openBefore, long openCount,
            OpenEntries open, boolean unnamedKept, long[] regionKeys, boolean regionKeysOver,
            boolean decodedAll, Violation fatal, java.util.List<Violation> kept,
            java.util.Map<String, Long> counts, boolean cluster, byte[] setup, byte[] sealKey) {
        this.map = map.clone();
        this.li = li;
        this.firstBlock = firstBlock;
        this.endBlock = endBlock;
        this.base = base;
        this.count = count;
        this.first = first;
        this.hasPrevious = hasPrevious;
        this.previousOcc = previousOcc;
        this.previousMover = previousMover;
        this.lastOcc = lastOcc;
        this.lastMover = lastMover;
        this.region = region;
        this.aux = aux;
        this.unreached = unreached;
        this.firstUnreached = firstUnreached;
        this.unreachedMover = unreachedMover;
        this.unreachedOpponent = unreachedOpponent;
        this.terminals = terminals.clone();
        this.proofTerminals = proofTerminals.clone();
        this.terminalPartitions = terminalPartitions;
        this.terminalSum = terminalSum;
        this.sentSum = sentSum;
        this.takenSum = takenSum;
        this.hasRoot = hasRoot;
        this.rootKind = rootKind;
        this.rootLo = rootLo;
        this.rootHi = rootHi;
        this.rootMove = rootMove;
        this.openBefore = openBefore;
        this.openCount = openCount;
        open.freeze();
        this.open = open;
        this.unnamedKept = unnamedKept;
        this.regionKeys = regionKeys == null ? null : regionKeys.clone();
        this.regionKeysOver = regionKeysOver;
        this.decodedAll = decodedAll;
        this.fatal = fatal;
        this.kept = kept.toArray(new Violation[0]);
        countedRules = counts.keySet().toArray(new String[0]);
        this.counts = new long[countedRules.length];
        for (int i = 0; i < countedRules.length; i++) this.counts[i] = counts.get(countedRules[i]);
        this.cluster = cluster;
        this.setup = setup.clone();
        seal = seal(sealKey);
    }

    /**
     * The mode and part setup a slice or the Combiner works under: --all and the violations kept
     * a rule, the composite's commitment and the part its open entries are kept for (none: alone),
     * whether region keys are kept. A slice set up otherwise than its Combiner could hide a
     * violation (--all slices report none as first) or open entries (kept for another composite).
     */
    static byte[] setupTag(boolean all, int maxPerRule, org.gamecert.verifier.kernel.format.Manifest
            keptFor, int keptForPart, boolean regionKeys) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        java.io.DataOutputStream d = new java.io.DataOutputStream(bytes);
        try {
            d.writeBoolean(all);
            d.writeInt(all ? Math.max(1, maxPerRule) : 0);
            byte[] m = keptFor == null ? new byte[0] : keptFor.commitment();
            d.writeInt(m.length);
            d.write(m);
            d.writeInt(keptFor == null ? -1 : keptForPart);
            d.writeBoolean(regionKeys);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e); // in memory
        }
        return bytes.toByteArray();
    }

    /** Whether the report was made by a slice set up as the tag says. */
    boolean setUpAs(byte[] tag) {
        return java.util.Arrays.equals(setup, tag);
    }

    /** Whether the seal is the one the key gives the fields as they are now. */
    boolean sealedWith(byte[] sealKey) {
        return java.security.MessageDigest.isEqual(seal, seal(sealKey));
    }

    private void writeObject(java.io.ObjectOutputStream out) throws java.io.IOException {
        if (!cluster) throw new java.io.NotSerializableException("a report made in one JVM");
        out.defaultWriteObject();
    }

    /** SHA-256 over the key and every field, each in a fixed order with its length. */
    private byte[] seal(byte[] key) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        java.io.DataOutputStream d = new java.io.DataOutputStream(bytes);
        try {
            d.write(key);
            d.write(map);
            d.writeInt(setup.length);
            d.write(setup);
            d.writeInt(li);
            d.writeInt(firstBlock);
            d.writeInt(endBlock);
            for (long x : new long[] {base, count, previousOcc, previousMover, lastOcc, lastMover,
                region, aux, unreached, firstUnreached, unreachedMover, unreachedOpponent,
                terminalPartitions, terminalSum, sentSum, takenSum, openBefore, openCount,
                rootKind, rootLo, rootHi, rootMove})
                d.writeLong(x);
            for (boolean b : new boolean[] {hasPrevious, hasRoot, unnamedKept, regionKeysOver,
                decodedAll, cluster})
                d.writeBoolean(b);
            violation(d, first);
            violation(d, fatal);
            d.writeInt(kept.length);
            for (Violation v : kept) violation(d, v);
            d.writeInt(countedRules.length);
            for (int i = 0; i < countedRules.length; i++) {
                d.writeUTF(countedRules[i]);
                d.writeLong(counts[i]);
            }
            longs(d, terminals);
            longs(d, proofTerminals);
            d.writeBoolean(regionKeys != null);
            if (regionKeys != null) longs(d, regionKeys);
            d.writeInt(open.size());
            d.writeInt(open.total());
            for (int i = 0; i < open.size(); i++) {
                d.writeLong(open.occ(i));
                d.writeLong(open.mover(i));
                d.writeInt(open.kind(i));
                d.writeInt(open.lo(i));
                d.writeInt(open.hi(i));
            }
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        return Chain.sha(new byte[] {3}, bytes.toByteArray());
    }

    /** The array's length, then its longs as writeLong would write them, in one bulk write. */
    private static void longs(java.io.DataOutputStream d, long[] a) throws java.io.IOException {
        d.writeInt(a.length);
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(8 * a.length); // big-endian
        b.asLongBuffer().put(a);
        d.write(b.array());
    }

    private static void violation(java.io.DataOutputStream d, Violation v)
            throws java.io.IOException {
        d.writeBoolean(v != null);
        if (v == null) return;
        d.writeUTF(v.rule());
        for (long x : new long[] {v.block(), v.layer(), v.entry(), v.mover(), v.opponent()})
            d.writeLong(x);
        d.writeBoolean(v.hasPosition());
        d.writeUTF(v.message());
    }

    /** --all: the violations kept, in file order. */
    java.util.List<Violation> kept() {
        return java.util.List.of(kept);
    }

    /** --all: the rules counted and their counts. */
    String[] countedRules() {
        return countedRules.clone();
    }

    long[] counts() {
        return counts.clone();
    }

    long[] regionKeys() {
        return regionKeys == null ? null : regionKeys.clone();
    }

    byte[] map() {
        return map.clone();
    }

    /** The kernel's to read, never to write (no copy: a layer's keys can be many). */
    long[] terminals() {
        return terminals;
    }

    /** The kernel's to read, never to write (no copy: a layer's keys can be many). */
    long[] proofTerminals() {
        return proofTerminals;
    }

    /** The first block of the slice (for an engine's bookkeeping). */
    public int firstBlock() {
        return firstBlock;
    }

    /** The slice's first violation, or null. */
    public Violation violation() {
        return first;
    }
}
