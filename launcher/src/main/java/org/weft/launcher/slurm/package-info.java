/**
 * Running inside a SLURM allocation ({@code salloc}, {@code sbatch}), as Open MPI's {@code mpirun} does: the hosts
 * and slots come from SLURM's environment, and ranks on other nodes are started with {@code srun} instead of ssh.
 */
package org.weft.launcher.slurm;
