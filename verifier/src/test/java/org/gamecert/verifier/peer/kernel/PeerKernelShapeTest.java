package org.gamecert.verifier.peer.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The peer kernel's promises about its own source (issue 17), as KernelShapeTest for our own
 * kernel: plain single-threaded Java with no concurrency library, no thread, no I/O, none of the
 * verifier's untrusted packages (the peer engine included; our own kernel's game rules are
 * allowed), no line over 100 characters. The one name of java.io allowed is the marker
 * java.io.Serializable (SliceResult travels from a task to the driver).
 */
class PeerKernelShapeTest {
    static final Path KERNEL = Paths.get("src/main/java/org/gamecert/verifier/peer/kernel");

    @Test
    void plainSingleThreadedJavaWithoutIoThatDependsOnNothingUntrusted() throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.walk(KERNEL)) {
            s.filter(p -> p.toString().endsWith(".java")).sorted().forEach(files::add);
        }
        assertTrue(files.size() >= 10, "the peer kernel's sources: " + files);
        String[] banned = {"java.util.concurrent", "new Thread", "synchronized", "ExecutorService",
            "java.io", "java.nio.file", "java.net", "System.out", "System.err",
            "org.gamecert.verifier.engine", "org.gamecert.verifier.cli",
            "org.gamecert.verifier.bundle"};
        // the peer engine's package (peer.X); peer.kernel is this package
        Pattern peerEngine = Pattern.compile("org\\.gamecert\\.verifier\\.peer\\.(?!kernel\\b)");
        List<String> found = new ArrayList<>();
        for (Path f : files) {
            List<String> lines = Files.readAllLines(f);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i), where = KERNEL.relativize(f) + ":" + (i + 1);
                // java.io.Serializable, a marker (a slice's result goes to a driver), is no I/O
                String code = line.replace("java.io.Serializable", "");
                for (String b : banned) if (code.contains(b)) found.add(where + " uses " + b);
                if (peerEngine.matcher(line).find()) found.add(where + " uses the peer engine");
                if (line.length() > 100) found.add(where + " has " + line.length() + " characters");
            }
        }
        assertEquals(List.of(), found);
    }
}
