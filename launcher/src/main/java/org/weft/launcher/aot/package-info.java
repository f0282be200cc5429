/** The program that trains the ranks' AOT cache ({@code bin/weft-aot-train}). */
package org.weft.launcher.aot;
