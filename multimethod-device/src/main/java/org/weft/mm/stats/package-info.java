/** Feedback: what each method carried and how often polling it found work, per process. */
package org.weft.mm.stats;
