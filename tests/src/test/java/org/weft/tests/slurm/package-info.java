/** {@code weftrun} inside allocations of a real SLURM cluster on this machine ({@code sbatch}, {@code salloc}). */
package org.weft.tests.slurm;
