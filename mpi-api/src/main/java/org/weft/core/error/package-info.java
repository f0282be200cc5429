/** Error classes, error handler modes and the messages of fatal errors. */
package org.weft.core.error;
