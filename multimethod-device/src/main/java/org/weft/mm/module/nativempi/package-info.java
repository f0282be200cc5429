/**
 * The {@code nativempi} method: RSRs between the processes of one native MPI job, through the installed libmpi
 * (Open MPI 4.1+, MPICH 4.x) called with Java's FFM API — no JNI, nothing to compile.
 *
 * <h2>Requirements</h2>
 * The process is started by a native launcher ({@code mpirun}; {@code weftrun --site} starts one per site) and runs
 * with {@code --enable-native-access=ALL-UNNAMED}. libmpi is opened with {@code RTLD_NOW | RTLD_GLOBAL} through
 * libc's {@code dlopen} (Open MPI's plugins resolve libmpi's symbols from the global scope). Which libmpi: the one
 * of the launcher that started the process ({@link NativeLaunch}: Open MPI's mpirun or MPICH's Hydra), unless
 * {@code nativempi_library} names another; the native job's id is broadcast by its rank 0 after {@code MPI_Init}.
 *
 * <h2>Copies and what is open</h2>
 * A send copies the RSR into a native buffer (the SPI frees the caller's buffers when {@code send} returns): a small
 * one for MPI_Send, a send slot for MPI_Isend. Arrivals land in the slots of pre-posted MPI_Irecvs, handed to the
 * sink as views (pre-posting measured faster than MPI_Improbe + MPI_Mrecv; see {@link Receiver}). The data of large
 * messages does not travel in RSRs: {@link BulkTransfers} moves it as one MPI message from the sender's buffer into
 * the receiver's.
 *
 * <h2>Hazard: JVM signals and native transports</h2>
 * The JVM uses {@code SIGSEGV} and {@code SIGBUS} itself (implicit null checks, safepoint polls, stack banging) and
 * relies on its own handlers seeing them. UCX (Open MPI's {@code pml/ucx}, MPICH's ch4:ucx) installs handlers for
 * the same signals to print its error reports; a JVM whose handler was replaced crashes on its first null
 * check ("segfaults with the Java bindings"). The module sets {@code UCX_ERROR_SIGNALS=""} in the C
 * environment before it loads libmpi, unless the user set it: libmpich loads UCX's libucs with it, and libucs reads
 * the variable when it loads. With other transports that catch these signals,
 * switch their handlers off the same way (for Open MPI's backtrace handler: {@code OMPI_MCA_opal_signal}, a list
 * of signals, left without 11 and 7); {@code -Xrs} does not help, it only affects SIGQUIT/SIGTERM-style signals.
 */
package org.weft.mm.module.nativempi;
