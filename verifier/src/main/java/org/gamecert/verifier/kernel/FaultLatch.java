package org.gamecert.verifier.kernel;

/**
 * The engine fault a kernel object (a SliceCheck, the Combiner, a TerminalCount, a RankedKernel)
 * has seen, if any (SPEC §11.1): once faulted, every later call is refused, so an engine that
 * caught the fault cannot go on to a verdict. Each public call begins with {@link #begin} and
 * ends with {@link #done}: a call that threw anything else (an OutOfMemoryError, a
 * StackOverflowError, a NullPointerException from a null argument), which an engine may catch
 * too, left the object part way through a step, and every later call is refused as well. One per
 * object; sequential, as the object is.
 */
final class FaultLatch {
    private String faulted;
    /** A call has begun and not returned. */
    private boolean inCall;

    /** Records an engine fault and returns it to throw. */
    EngineFault fault(String message) {
        EngineFault e = new EngineFault(message);
        if (faulted == null) faulted = e.getMessage();
        return e;
    }

    /** Begins a call: refused after an engine fault, or after a call that did not return. */
    void begin() {
        if (faulted != null) throw new EngineFault("a call after " + faulted);
        if (inCall) throw fault("a call after one that threw (its object's state is partial)");
        inCall = true;
    }

    /** The call begun returns. */
    void done() {
        inCall = false;
    }

    /** The call begun returns result. */
    <T> T done(T result) {
        inCall = false;
        return result;
    }
}
