package org.gamecert.verifier.kernel;

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
 * The kernel's promises about its own source (issues 17, 39): a sequential kernel in plain Java.
 * No file under kernel/ starts or names a thread, takes a lock, or uses volatile fields, atomics,
 * VarHandles, ThreadLocals or the concurrency library, nor any of the verifier's untrusted
 * packages; no line is over 100 characters, so that a reviewer can read every line that decides
 * VERIFIED. Comments and string literals are not code: they may say what the kernel does not use.
 */
class KernelShapeTest {
    static final Path KERNEL = Paths.get("src/main/java/org/gamecert/verifier/kernel");

    static List<Path> sources() throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.walk(KERNEL)) {
            s.filter(p -> p.toString().endsWith(".java")).sorted().forEach(files::add);
        }
        return files;
    }

    /** What no kernel code may use, as whole words of code. */
    static final String[] BANNED = {"Thread", "ThreadLocal", "InheritableThreadLocal",
        "synchronized", "volatile", "VarHandle", "MethodHandles", "java\\.lang\\.invoke",
        "java\\.util\\.concurrent", "Atomic[A-Za-z]*", "atomic", "Executor[A-Za-z]*",
        "ForkJoin[A-Za-z]*", "CompletableFuture", "Runnable", "Callable", "Unsafe",
        "org\\.gamecert\\.verifier\\.(engine|cli|bundle|peer)", "org\\.gamecert\\.spark"};

    @Test
    void aSequentialKernelThatDependsOnNothingUntrusted() throws IOException {
        List<Path> files = sources();
        assertTrue(files.size() >= 15, "the kernel's sources: " + files);
        List<Pattern> banned = new ArrayList<>();
        for (String b : BANNED) banned.add(Pattern.compile("\\b" + b + "\\b"));
        List<String> found = new ArrayList<>();
        for (Path f : files) {
            List<String> lines = Files.readAllLines(f);
            boolean[] inComment = {false};
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                String code = code(line, inComment);
                for (int b = 0; b < BANNED.length; b++)
                    if (banned.get(b).matcher(code).find())
                        found.add(KERNEL.relativize(f) + ":" + (i + 1) + " uses " + BANNED[b]);
                if (line.length() > 100)
                    found.add(KERNEL.relativize(f) + ":" + (i + 1) + " has " + line.length()
                            + " characters");
            }
        }
        assertEquals(List.of(), found);
    }

    /**
     * Only TrustedJdk asks the JDK for a hash, a random number or any other security service:
     * elsewhere such a request (getInstance, new SecureRandom) would go to whichever provider the
     * JVM's list gives first, which an engine in the same JVM may choose (SECURITY.md GC-2026-20).
     * The peer kernel draws its key from TrustedJdk too.
     */
    @Test
    void onlyTrustedJdkAsksTheJdkForSecurityServices() throws IOException {
        List<Path> files = sources();
        try (Stream<Path> s = Files.walk(Paths.get("src/main/java/org/gamecert/verifier/peer/kernel"))) {
            s.filter(p -> p.toString().endsWith(".java")).sorted().forEach(files::add);
        }
        Pattern request = Pattern.compile("\\b(getInstance|SecureRandom|Cipher|KeyGenerator|Mac"
                + "|Signature|KeyFactory|Security|Provider|javax\\.crypto)\\b");
        List<String> found = new ArrayList<>();
        for (Path f : files) {
            if (f.getFileName().toString().equals("TrustedJdk.java")) continue;
            List<String> lines = Files.readAllLines(f);
            boolean[] inComment = {false};
            for (int i = 0; i < lines.size(); i++)
                if (request.matcher(code(lines.get(i), inComment)).find())
                    found.add(f + ":" + (i + 1) + ": " + lines.get(i).trim());
        }
        assertEquals(List.of(), found);
    }

    @Test
    void commentsAndStringsAreNotCode() {
        boolean[] in = {false};
        assertEquals("int x = ;", code("int x = \"a Thread\"; // volatile", in).trim());
        assertEquals("a ", code("a /* Thread", in));
        assertTrue(in[0]);
        assertEquals(" b", code("synchronized */ b", in));
        assertTrue(!in[0]);
        assertTrue(Pattern.compile("\\bThread\\b").matcher(code("new Thread(r)", in)).find());
    }

    /** The line without its comments and string and char literals (inComment: a block comment). */
    static String code(String line, boolean[] inComment) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < line.length()) {
            if (inComment[0]) {
                int e = line.indexOf("*/", i);
                if (e < 0) return out.toString();
                inComment[0] = false;
                i = e + 2;
                continue;
            }
            char c = line.charAt(i);
            if (line.startsWith("//", i)) break;
            if (line.startsWith("/*", i)) {
                inComment[0] = true;
                i += 2;
                continue;
            }
            if (c == '"' || c == '\'') { // a literal, escapes included
                int j = i + 1;
                while (j < line.length() && line.charAt(j) != c)
                    j += line.charAt(j) == '\\' ? 2 : 1;
                i = j + 1;
                continue;
            }
            out.append(c);
            i++;
        }
        return out.toString();
    }
}
