package org.weft.core.coll.sched;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.weft.adi.Device;
import org.weft.adi.Locality;

/**
 * The split of a communicator's members by site and by host is made once: every collective call asks for it
 * (to choose a flat or a hierarchical algorithm), and making it each time cost a barrier ~900 bytes of garbage.
 */
class MembersTest {
    /** World ranks 0-1 on site a (host x), 2 on site a (host y), 3 on site b (host z); counts locality look-ups. */
    private static Device layout(AtomicInteger lookUps) {
        Locality[] where = {new Locality("a", "x"), new Locality("a", "x"), new Locality("a", "y"),
                new Locality("b", "z")};
        return (Device) Proxy.newProxyInstance(Device.class.getClassLoader(), new Class<?>[] {Device.class},
                (proxy, method, args) -> {
                    if (!method.getName().equals("locality")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    lookUps.incrementAndGet();
                    return where[(Integer) args[0]];
                });
    }

    @Test
    void groupsBySiteAndByHostAreMadeOnceAndInOrderOfTheirLowestMember() {
        AtomicInteger lookUps = new AtomicInteger();
        Device device = layout(lookUps);
        Members m = new Members(new int[] {3, 0, 2, 1}, 1);

        int[][] bySite = m.groups(device, Members.BY_SITE);
        assertEquals(2, bySite.length);
        assertArrayEquals(new int[] {0}, bySite[0], "site b holds member 0 (world rank 3)");
        assertArrayEquals(new int[] {1, 2, 3}, bySite[1]);
        int[][] byHost = m.groups(device, Members.BY_HOST);
        assertEquals(3, byHost.length);
        assertArrayEquals(new int[] {1, 3}, byHost[1], "host x holds world ranks 0 and 1");
        assertEquals(8, lookUps.get(), "one look-up per member and level");

        assertSame(bySite, m.groups(device, Members.BY_SITE));
        assertSame(byHost, m.groups(device, Members.BY_HOST));
        assertEquals(8, lookUps.get(), "asked again: no look-up");
    }
}
