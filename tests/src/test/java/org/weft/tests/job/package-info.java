/** Job-level tests with real JVMs started by {@code weftrun}: failures, strangers, exit codes. */
package org.weft.tests.job;
