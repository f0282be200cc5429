/**
 * The test harness: N ranks as N runtime instances in one JVM ({@link org.weft.tests.harness.InProcessWorld}), and
 * real jobs of real JVMs started through {@code weftrun} ({@link org.weft.tests.harness.WeftrunJob}). A hang fails
 * the test with a thread dump.
 */
package org.weft.tests.harness;
