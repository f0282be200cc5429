/** Jobs over several sites ({@code weftrun --site}), native sites started by their own mpirun: real processes. */
package org.weft.tests.sites;
