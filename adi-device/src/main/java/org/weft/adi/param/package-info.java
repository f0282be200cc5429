/** Declared parameters: every tunable has a name, default, unit and one line of documentation. */
package org.weft.adi.param;
