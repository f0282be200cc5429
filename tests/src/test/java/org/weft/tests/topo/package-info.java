/** MPI chapter 8 (process topologies) over real transports. */
package org.weft.tests.topo;
