/**
 * The release as a user installs it: the archive that {@code distribution} builds, unpacked in an empty directory,
 * runs an example and a separate user project with only a JDK, no build tree.
 */
package org.weft.tests.install;
