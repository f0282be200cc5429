/** The {@code self} method: RSRs a process sends to itself, queued and delivered by its own progress passes. */
package org.weft.mm.module.self;
