package org.gamecert.verifier.bundle;

import java.nio.file.Path;

/** A regular file of the bag as read: size and digests; the bytes of tag files; where a certificate can be read. */
final class BagEntry {
    final String name;       // relative to the bag root, '/'-separated
    long size;
    String sha256, sha512;   // lowercase hex
    byte[] bytes;            // tag files (outside data/) only
    boolean certificateMagic;
    boolean manifestMagic;   // a composite's manifest (SPEC §15.2)
    Path file;               // a readable copy (directory bag: the file itself; tar: spooled certificates and manifests)

    BagEntry(String name) { this.name = name; }
}
