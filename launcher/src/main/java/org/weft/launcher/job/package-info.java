/** Supervision of one running job: start, watch, end it on the first failure, leave no process behind. */
package org.weft.launcher.job;
