package org.gamecert.verifier.kernel;

/**
 * The engine fault a kernel object (a SliceCheck, the Combiner, a TerminalCount) has seen, if
 * any (SPEC §11.1): once faulted, every later call is refused, so an engine that caught the fault
 * cannot go on to a verdict. One per object; sequential, as the object is.
 */
final class FaultLatch {
    private String faulted;

    /** Records an engine fault and returns it to throw. */
    EngineFault fault(String message) {
        EngineFault e = new EngineFault(message);
        if (faulted == null) faulted = e.getMessage();
        return e;
    }

    /** Refuses a call after an engine fault. */
    void notFaulted() {
        if (faulted != null) throw new EngineFault("a call after " + faulted);
    }
}
