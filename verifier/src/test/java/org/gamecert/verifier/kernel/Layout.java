package org.gamecert.verifier.kernel;

import java.security.MessageDigest;
import java.util.List;
import org.gamecert.verifier.kernel.format.BlockRecord;

/**
 * What pass 1 learnt of a file's layout, for a kernel in another JVM that checks some of its
 * blocks (a cluster engine, SPEC §11.1): the layers, their blocks and sizes, the block records
 * with their chain values, where the root's entry is. It travels through the engine, so the
 * kernel that adopts it sends back its fingerprint (SliceResult), and the kernel that made it
 * accepts a slice only when that fingerprint is its own.
 */
public final class Layout implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    final int layers;
    final int[] discs, first, end;
    final long[] size;
    final BlockRecord[] blocks;
    final boolean rootFound;
    final long rootIndex;

    Layout(Kernel k) {
        layers = k.nLayers;
        discs = java.util.Arrays.copyOf(k.lDiscs, layers);
        first = java.util.Arrays.copyOf(k.lFirst, layers);
        end = java.util.Arrays.copyOf(k.lEnd, layers);
        size = java.util.Arrays.copyOf(k.lSize, layers);
        blocks = k.blockList.toArray(new BlockRecord[0]);
        rootFound = k.rootFound;
        rootIndex = k.rootIndex;
    }

    /**
     * SHA-256 over every field, in a fixed order, after h_0 (the header's hash, SPEC §3) of the
     * kernel that takes it: a kernel that read another header cannot match the one that made it.
     */
    byte[] fingerprint(byte[] headerChain) {
        MessageDigest md = Kernel.sha256();
        md.update(headerChain);
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(64);
        b.putInt(layers).put((byte) (rootFound ? 1 : 0)).putLong(rootIndex);
        md.update(b.array(), 0, b.position());
        for (int i = 0; i < layers; i++) {
            b.clear();
            b.putInt(discs[i]).putInt(first[i]).putInt(end[i]).putLong(size[i]);
            md.update(b.array(), 0, b.position());
        }
        for (BlockRecord r : blocks) {
            b.clear();
            b.putLong(r.index).putLong(r.layer).putLong(r.count).putLong(r.rawLen)
                    .putLong(r.compLen).putLong(r.frameOffset);
            md.update(b.array(), 0, b.position());
            md.update(r.chain());
        }
        return md.digest();
    }

    List<BlockRecord> blockList() {
        return List.of(blocks);
    }
}
