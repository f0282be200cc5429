/** Small rank programs started by the launcher's process tests. */
package org.weft.launcher.testapps;
