package org.weft.mm.module.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** The name a rank gives its host ({@code MPI_Get_processor_name}, shm's locality) is Java's name for it. */
class HostIdentityTest {
    @Test
    void theLocalNameIsTheOneJavaGives() throws Exception {
        assertEquals(InetAddress.getLocalHost().getHostName(), HostIdentity.localName());
    }
}
