/** Virtual topologies (Cartesian, graph, distributed graph) of communicators and their neighbourhoods. */
package org.weft.core.topo;
