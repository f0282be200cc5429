/**
 * A direct-summation N-body simulation in the CosmoGrid setting: particles block-distributed over the ranks, every
 * step an allgather of all positions (the exchange that crossed the Amsterdam–Tokyo path), softened forces and a
 * kick-drift-kick leapfrog; checks energy conservation and a sequential run, and times each step per stream setting.
 */
package nbody;
