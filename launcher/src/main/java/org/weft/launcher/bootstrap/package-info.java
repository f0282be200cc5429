/** The launcher's bootstrap (rendezvous) service: ranks prove the job secret, register, gather and abort here. */
package org.weft.launcher.bootstrap;
