/** What TLS costs a connection that leaves a site, against a plaintext one measured in the same run. */
package org.weft.bench.tls;
