/**
 * TLS 1.3 between the ranks of one job (the JDK's {@code SSLEngine}): the policy that says which links are
 * encrypted, and the credentials each rank proves itself with, derived from the job's secret.
 */
package org.weft.mm.tls;
