/** Attribute caching on communicators: keyvals, attribute tables and values stored by value. */
package org.weft.core.attr;
