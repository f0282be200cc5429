/**
 * Dynamic processes and MPMD: jobs of several app contexts, spawn, ports, names and join, run as real jobs.
 */
package org.weft.tests.dynamic;
