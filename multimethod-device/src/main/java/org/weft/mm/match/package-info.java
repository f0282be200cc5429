/**
 * The one matching engine: posted receives and unexpected messages, matched by (context, source, tag) with
 * {@code ANY_SOURCE} and {@code ANY_TAG}, in posting and arrival order (non-overtaking).
 */
package org.weft.mm.match;
