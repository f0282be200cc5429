/** Benchmarks of what Weft does on paths between sites: compression, aggregation (run across bin/weft-wan). */
package org.weft.bench.wan;
