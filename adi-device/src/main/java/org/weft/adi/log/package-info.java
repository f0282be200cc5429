/** Diagnostics that strangers can provoke, kept to a bounded number of lines. */
package org.weft.adi.log;
