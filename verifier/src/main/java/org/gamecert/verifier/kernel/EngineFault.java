package org.gamecert.verifier.kernel;

/** The engine broke its contract (SPEC §11.1): the verdict can only be an error. */
public final class EngineFault extends RuntimeException {
    EngineFault(String message) {
        super("engine fault: " + message, null, false, false);
    }
}
