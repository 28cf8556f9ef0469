package org.gamecert.verifier.peer.kernel;

/**
 * What a task's kernel found in one slice of table n (TableCheck.sliceResult, after the slice's
 * check ended): the slice it was asked for, its tally and first finding, the record before the
 * slice as the task's engine gave it and the slice's last record as checked (the driver's kernel
 * chains them: PEER-ORDER-1 across slice boundaries), and table n+1 as the task loaded it. Only
 * the kernel makes one (package-private constructor); it travels to the driver by serialization.
 */
public final class SliceResult implements java.io.Serializable {
    private static final long serialVersionUID = 2L;
    final Slice slice;
    final boolean complete;
    final PeerFinding finding;
    final long records, region, auxiliary, frontierRecords, frontierChildren, contentSum;
    final long rootMatches;
    final TableCheck.RootSeen rootSeen;
    final long unsettledRoots;
    final TableCheck.RootSeen firstUnsettled;
    final int passes;
    final boolean childrenLoaded;
    final long childAdmitted, childSum;
    final byte[] previous, lastRecord;
    /** The root the task's kernel counted matches of (PeerKernel.rootIdentity). */
    final String rootFor;

    SliceResult(TableCheck t, Slice slice) {
        this.slice = slice;
        rootFor = t.kernel.rootIdentity();
        complete = t.complete();
        finding = t.finding();
        records = t.records();
        region = t.region;
        auxiliary = t.auxiliary;
        frontierRecords = t.frontierRecords;
        frontierChildren = t.frontierChildren;
        contentSum = t.contentSum;
        rootMatches = t.rootMatches;
        rootSeen = t.rootSeen;
        unsettledRoots = t.unsettledRoots;
        firstUnsettled = t.firstUnsettled;
        passes = t.passes();
        childrenLoaded = t.childrenLoaded();
        childAdmitted = t.childAdmitted();
        childSum = t.childSum();
        previous = t.previous == null ? null : t.previous.clone();
        lastRecord = t.lastRecord == null ? null : t.lastRecord.clone();
    }

    public Slice slice() {
        return slice;
    }

    public PeerFinding finding() {
        return finding;
    }

    public long records() {
        return records;
    }

    public int passes() {
        return passes;
    }
}
