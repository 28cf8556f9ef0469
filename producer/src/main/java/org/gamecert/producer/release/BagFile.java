package org.gamecert.producer.release;

import java.io.IOException;
import java.io.InputStream;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** One file of a bag: its path relative to the bag root ('/'-separated) and its bytes or source file. */
public final class BagFile implements Comparable<BagFile> {
    final String name;
    final byte[] bytes;   // null when the content is a file on disk (certificates may be large)
    final Path source;

    private BagFile(String name, byte[] bytes, Path source) { this.name = name; this.bytes = bytes; this.source = source; }

    public static BagFile of(String name, byte[] bytes) { return new BagFile(name, bytes, null); }

    public static BagFile of(String name, Path source) { return new BagFile(name, null, source); }

    long size() throws IOException { return bytes != null ? bytes.length : Files.size(source); }

    InputStream open() throws IOException { return bytes != null ? new ByteArrayInputStream(bytes) : Files.newInputStream(source); }

    @Override public int compareTo(BagFile o) { return name.compareTo(o.name); }
}
