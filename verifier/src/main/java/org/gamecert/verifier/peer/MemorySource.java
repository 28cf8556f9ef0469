package org.gamecert.verifier.peer;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.Map;
import java.util.TreeMap;

/** Tables held in memory as raw 13-byte records (the CSV form, small test inputs). */
public final class MemorySource implements PeerSource {
    private final TreeMap<Integer, byte[]> tables;
    private final String description;

    public MemorySource(Map<Integer, byte[]> tables, String description) {
        this.tables = new TreeMap<>(tables);
        this.description = description;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public int[] tables() {
        return tables.keySet().stream().mapToInt(Integer::intValue).toArray();
    }

    @Override
    public long byteSize(int n) {
        return tables.get(n).length;
    }

    @Override
    public InputStream open(int n) {
        return new ByteArrayInputStream(tables.get(n));
    }
}
