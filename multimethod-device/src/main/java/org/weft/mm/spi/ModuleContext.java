package org.weft.mm.spi;

import org.weft.adi.param.Parameters;

/** What a module learns of the process it serves when it starts. */
public interface ModuleContext {
    /** This process's world rank. */
    int rank();

    int size();

    /** The job's id: peers of another job are never applicable. */
    String jobId();

    /** The per-job secret a connection must prove before any RSR it carries is delivered. */
    String secret();

    /** The host's name, as peers compare it (e.g. for shared memory). */
    String hostName();

    Parameters parameters();

    /** Where the module hands arriving RSRs. */
    RsrSink inbound();
}
