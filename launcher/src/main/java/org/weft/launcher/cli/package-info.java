/** The command lines: {@code weftrun} and {@code weft}, parsed with picocli. */
package org.weft.launcher.cli;
