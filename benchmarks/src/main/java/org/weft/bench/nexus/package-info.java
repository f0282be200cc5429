/**
 * Benchmarks below MPI, on the multimethod (Nexus) layer: remote service requests between contexts, as the Nexus
 * papers' {@code pphandle} and {@code ppmulti}.
 */
package org.weft.bench.nexus;
