/** Collectives as schedules: rounds of nonblocking transfers and local steps, run blocking or step by step. */
package org.weft.core.coll.sched;
