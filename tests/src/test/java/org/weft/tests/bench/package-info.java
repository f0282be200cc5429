/**
 * {@code weft bench} as a user runs it: the figures it writes ({@code --csv}, {@code --plot}), read back and checked
 * against what the benchmark printed, {@code weft bench compare}, and Open MPI's C twin run beside it
 * ({@code --reference}).
 */
package org.weft.tests.bench;
