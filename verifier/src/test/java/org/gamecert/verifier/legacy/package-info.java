/**
 * A verbatim copy of the verifier's checker as it was before the kernel/engine split (commit
 * 82392d5, package org.gamecert.verifier.core), kept only in the test sources so that
 * DifferentialTest can compare the kernel and its engine with it on every corpus file. Nothing
 * under src/main uses it.
 */
package org.gamecert.verifier.legacy;
