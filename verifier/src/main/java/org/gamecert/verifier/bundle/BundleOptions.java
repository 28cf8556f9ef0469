package org.gamecert.verifier.bundle;

import java.nio.file.Path;
import org.gamecert.verifier.engine.Options;

/** What the user asked for when checking a release bundle. */
public final class BundleOptions {
    /** Trusted Ed25519 public key file (one line, base64 of 32 bytes); null: the signature is checked only against the bundle's own key. */
    public Path pubkey;
    /** Print one JSON object on stdout instead of the human report. */
    public boolean json;
    /** Where the parts of a composite released by reference are (files HEX.gsc); null: not given, such a composite is incomplete. */
    public Path partsDir;
    /** Options for each certificate's check by the core verifier. */
    public Options certificate = new Options();
    /** Largest tag file (top-level file such as bag-info.txt or a manifest) held in memory. */
    public long maxTagFileBytes = 16L << 20;
}
