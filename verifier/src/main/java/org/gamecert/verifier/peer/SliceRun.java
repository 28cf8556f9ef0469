package org.gamecert.verifier.peer;

import org.gamecert.verifier.peer.kernel.Slice;
import org.gamecert.verifier.peer.kernel.SliceResult;

/**
 * One slice's task as another engine ran it (PeerVerifier.checkSlice): the task kernel's result,
 * or why there is none, and what the report shows of the task (untrusted; the result is the
 * kernel's).
 */
public final class SliceRun implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    public final Slice slice;
    public SliceResult result;
    /** Set when the task could not run (an I/O error, an engine fault). */
    public String error;
    public long childRecords;
    /** Passes over the slice (one per key range of table n+1 loaded), as the engine counted them. */
    public int passes;
    public double seconds;

    public SliceRun(Slice slice) {
        this.slice = slice;
    }
}
