package org.gamecert.verifier.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.nio.file.Path;
import org.gamecert.verifier.kernel.format.Container;
import org.junit.jupiter.api.Test;

/**
 * A map's layers (disc count, blocks, entries) are made from its block records, in the JVM that
 * read the file and in one that reads the map back from a serial form (a cluster): the serial
 * form carries the records, which its fingerprint covers, and no layer table of a sender's that
 * could disagree with them (a review: an executor's map with another layer below would take
 * invented child records).
 */
class MapLayersFromRecordsTest {
    static final Path VALID = Path.of("..").toAbsolutePath().normalize().resolve("testdata/valid");

    @Test
    void aMapReadBackHasTheLayersOfItsRecordsAndItsSerialFormCarriesNoLayerTable()
            throws Exception {
        ObjectStreamClass form = ObjectStreamClass.lookup(FileMap.class);
        for (String field : new String[] {"discs", "first", "end", "size", "nLayers"})
            assertNull(form.getField(field), field + " travels in the serial form");
        FileMap map;
        try (Container ct = new Container(VALID.resolve("connect4-4x4-8discs.gsc"))) {
            map = FileMap.readForCluster(ct);
        }
        assertTrue(map.layers() > 1, "a certificate of several layers");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(map);
        }
        FileMap back;
        try (ObjectInputStream in =
                new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            back = (FileMap) in.readObject();
        }
        assertArrayEquals(map.fingerprint(), back.fingerprint());
        assertEquals(map.layers(), back.layers());
        for (int li = 0; li < map.layers(); li++) {
            assertEquals(map.discs(li), back.discs(li));
            assertEquals(map.firstBlock(li), back.firstBlock(li));
            assertEquals(map.endBlock(li), back.endBlock(li));
            assertEquals(map.size(li), back.size(li));
            assertEquals(map.below(li), back.below(li));
            long entries = 0;
            for (int b = back.firstBlock(li); b < back.endBlock(li); b++) {
                entries += back.record(b).count;
                assertEquals(back.discs(li), back.record(b).layer, "block " + b);
            }
            assertEquals(back.size(li), entries, "layer " + li);
        }
    }
}
