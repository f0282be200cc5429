/**
 * The device-independent MPI layer under the {@code mpi} facade: the per-process runtime
 * ({@link org.weft.core.MpiRuntime}) and the one piece of static state that binds it to threads
 * ({@link org.weft.core.RuntimeBinding}); what Weft asks of the JIT ({@link org.weft.core.JitHints}).
 */
package org.weft.core;
