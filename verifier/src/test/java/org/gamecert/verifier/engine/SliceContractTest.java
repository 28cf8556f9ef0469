package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.SliceReport;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.Test;

/**
 * The sequential kernel's one contract (SPEC §11.1) against a faulty engine: a child fact
 * altered, delivered for another record, dropped or repeated on its way down, a slice's report
 * dropped, repeated or made for another file, a wrong key before a slice. Each either ends in an
 * engine fault or changes nothing the kernel concludes; none makes a run VERIFIED with another
 * outcome than the honest one.
 */
class SliceContractTest {
    static final Path VALID = DifferentialTest.ROOT.resolve("testdata/valid");
    /** Valid certificates, two of the corpus and three cut into blocks of one to three entries. */
    static final Path[] FILES;

    static {
        try {
            Path dir = java.nio.file.Files.createTempDirectory("slice-contract");
            dir.toFile().deleteOnExit();
            TinySolver c4 = new TinySolver(2, 3, 4, 2, null);
            TinySolver o4 = new TinySolver(1, 4, 4, 1, null);
            long[] start = o4.othelloStart();
            Path[] made = new Path[3];
            TestCert[] certs = {c4.build(0, 0, 1), c4.build(0, 0, 2), o4.build(start[0], start[1], 1)};
            for (int i = 0; i < 3; i++) {
                certs[i].chunk = i + 1;
                made[i] = dir.resolve("cut-" + i + ".gsc");
                java.nio.file.Files.write(made[i], certs[i].write());
                made[i].toFile().deleteOnExit();
            }
            FILES = new Path[] {VALID.resolve("connect4-4x4-8discs.gsc"),
                VALID.resolve("othello4x4-8discs-weak.gsc"), made[0], made[1], made[2]};
        } catch (java.io.IOException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The outcome with the fault: "fault" for an engine fault, else the verdict and figures. */
    static String outcome(Path file, SliceEngine.Faults faults) {
        try {
            Result r = new SliceEngine(1, 1, faults).verify(file, false);
            return r.verdict + " " + r.commitment + " " + r.region + " " + r.unreached;
        } catch (org.gamecert.verifier.kernel.EngineFault e) {
            return "fault";
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    static String honest(Path file) {
        return outcome(file, SliceEngine.Faults.NONE);
    }

    /** Every file: the fault (made once, where it first can be) is caught as an engine fault. */
    static void caught(Supplier<SliceEngine.Faults> fault) {
        for (Path f : FILES) {
            assertTrue(honest(f).startsWith("VERIFIED"), f + " verifies");
            assertEquals("fault", outcome(f, fault.get()), f.getFileName().toString());
        }
    }

    /** Changes one present answer the first time there is one (once per run). */
    abstract static class OneAnswer implements SliceEngine.Faults {
        boolean done;

        @Override
        public void answers(int li, int first, long[][] req, long[] index, byte[] kind, byte[] lo,
                byte[] hi) {
            for (int j = 0; j < index.length && !done; j++)
                if (index[j] >= 0) {
                    change(j, index, kind, lo, hi);
                    done = true;
                }
        }

        abstract void change(int j, long[] index, byte[] kind, byte[] lo, byte[] hi);
    }

    @Test
    void anAnswerWithOtherBoundsIsAnEngineFault() {
        caught(() -> new OneAnswer() {
            void change(int j, long[] index, byte[] kind, byte[] lo, byte[] hi) {
                lo[j] = (byte) (lo[j] > -1 ? lo[j] - 1 : lo[j] + 1);
                hi[j] = lo[j];
            }
        });
    }

    @Test
    void anAnswerWithAnotherKindIsAnEngineFault() {
        caught(() -> new OneAnswer() {
            void change(int j, long[] index, byte[] kind, byte[] lo, byte[] hi) {
                kind[j] = (byte) (kind[j] == 0x18 ? 0x10 : kind[j] == 0x01 ? 0x02 : 0x18);
            }
        });
    }

    @Test
    void anAnswerNamingAnotherEntryIsAnEngineFault() {
        caught(() -> new OneAnswer() {
            void change(int j, long[] index, byte[] kind, byte[] lo, byte[] hi) {
                index[j] = index[j] > 0 ? index[j] - 1 : index[j] + 1;
            }
        });
    }

    /** Changes the counts of the first slice that was sent any fact (once per run). */
    abstract static class OneCount implements SliceEngine.Faults {
        boolean done;

        @Override
        public void counts(int li, int first, int[] facts, int[][] bits) {
            if (done) return;
            for (int i = 0; i < facts.length && !done; i++)
                if (facts[i] > 0) {
                    change(i, facts, bits);
                    done = true;
                }
        }

        abstract void change(int i, int[] facts, int[][] bits);
    }

    @Test
    void aFactDroppedOnItsWayIsAnEngineFault() {
        caught(() -> new OneCount() {
            void change(int i, int[] facts, int[][] bits) {
                facts[i]--;
                for (int[] b : bits) if (b[i] > facts[i]) b[i]--;
            }
        });
    }

    @Test
    void aFactRepeatedIsAnEngineFault() {
        caught(() -> new OneCount() {
            void change(int i, int[] facts, int[][] bits) {
                facts[i]++;
            }
        });
    }

    @Test
    void aFactWithAnotherFlagIsAnEngineFault() {
        caught(() -> new OneCount() {
            void change(int i, int[] facts, int[][] bits) {
                bits[0][i] = bits[0][i] > 0 ? bits[0][i] - 1 : 1; // a need P taken away or added
            }
        });
    }

    @Test
    void reachedForgedForAnEntryNoParentNamedIsAnEngineFault() {
        caught(() -> new SliceEngine.Faults() {
            boolean done;

            public void counts(int li, int first, int[] facts, int[][] bits) {
                for (int i = 0; i < facts.length && !done; i++)
                    if (facts[i] == 0 && li < 64) {
                        facts[i] = 1;
                        bits[3][i] = 1;
                        done = true;
                    }
            }
        });
    }

    @Test
    void aFactMovedToAnotherEntryOfItsSliceIsAnEngineFault() {
        for (Path f : FILES) {
            boolean[] moved = {false};
            String o = outcome(f, new SliceEngine.Faults() {
                public void counts(int li, int first, int[] facts, int[][] bits) {
                    for (int i = 0; i + 1 < facts.length && !moved[0]; i++)
                        if (facts[i] > 0) {
                            facts[i]--;
                            facts[i + 1]++;
                            moved[0] = true;
                        }
                }
            });
            if (moved[0]) assertEquals("fault", o, f.toString());
        }
    }

    @Test
    void aSliceDroppedOrRepeatedIsAnEngineFault() {
        caught(() -> new SliceEngine.Faults() {
            public List<SliceReport> reports(int li, List<SliceReport> honest) {
                List<SliceReport> r = new ArrayList<>(honest);
                if (r.size() > 1) r.remove(r.size() - 1);
                else r.add(r.get(0));
                return r;
            }
        });
    }

    @Test
    void aSliceCheckedAgainstAnotherFileIsAnEngineFault() throws Exception {
        // the reports of one file's check, handed to another file's Combiner
        List<List<SliceReport>> other = new ArrayList<>();
        new SliceEngine(1, 1, new SliceEngine.Faults() {
            public List<SliceReport> reports(int li, List<SliceReport> honest) {
                other.add(honest);
                return honest;
            }
        }).verify(FILES[1], false);
        assertEquals("fault", outcome(FILES[0], new SliceEngine.Faults() {
            public List<SliceReport> reports(int li, List<SliceReport> honest) {
                return other.isEmpty() ? honest : other.get(0);
            }
        }));
    }

    @Test
    void anotherKeyBeforeASliceIsAnEngineFaultOrBreaksKeyOrder() {
        int applied = 0;
        for (Path f : FILES) {
            int[] changed = {0};
            String o = outcome(f, new SliceEngine.Faults() {
                public long[] previous(int li, int first, long[] honest) {
                    if (honest[0] == 0) return honest;
                    changed[0]++;
                    return new long[] {1, honest[1], honest[2] ^ 1};
                }
            });
            if (changed[0] == 0) continue;
            applied++;
            assertTrue(o.equals("fault") || o.startsWith("REJECTED"), f + ": " + o);
        }
        assertTrue(applied >= 3, "files with layers of several slices: " + applied);
    }

    @Test
    void anAbsentAnswerOnlyMakesTheKernelKnowLess() {
        for (Path f : FILES) {
            String o = outcome(f, new OneAnswer() {
                void change(int j, long[] index, byte[] kind, byte[] lo, byte[] hi) {
                    index[j] = -1;
                }
            });
            String honest = honest(f);
            // either rejected (a need or a bound unmet), or the same claims with fewer reached
            assertTrue(o.startsWith("REJECTED") || o.startsWith("VERIFIED " + honest.split(" ")[1]),
                    f + ": " + o);
        }
    }
}
