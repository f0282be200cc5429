package org.weft.adi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Device#exchange}, the default {@code MPI_Sendrecv}, against a device whose operations this test scripts
 * (the default methods run as written; the abstract ones answer from here).
 */
class DeviceExchangeTest {
    private final List<String> calls = new ArrayList<>();
    private final DeviceRequest receive = new DeviceRequest();

    /** A device whose isend answers {@code send} (or throws it, if it is an exception). */
    private Device device(Object send) {
        InvocationHandler handler = (proxy, method, args) -> {
            if (method.isDefault()) {
                return InvocationHandler.invokeDefault(proxy, method, args);
            }
            calls.add(method.getName());
            return switch (method.getName()) {
                case "irecv" -> receive;
                case "isend" -> {
                    if (send instanceof RuntimeException e) {
                        throw e;
                    }
                    yield send;
                }
                case "cancel" -> {
                    receive.completeCancelled();
                    yield true;
                }
                case "await" -> null;
                default -> throw new UnsupportedOperationException(method.getName());
            };
        };
        return (Device) Proxy.newProxyInstance(Device.class.getClassLoader(), new Class<?>[] {Device.class},
                handler);
    }

    private static DeviceRequest exchange(Device device) {
        MemorySegment none = MemorySegment.ofArray(new byte[0]);
        return device.sendRecv(none, 1, 2, none, 1, 2, 0);
    }

    @Test
    void theReceiveIsPostedBeforeTheSendAndBothAreAwaited() {
        DeviceRequest send = DeviceRequest.completed(Ranks.PROC_NULL, Ranks.ANY_TAG);
        receive.complete(1, 2, 0, ErrorClass.SUCCESS);
        assertSame(receive, exchange(device(send)));
        assertEquals(List.of("irecv", "isend", "await", "await"), calls);
    }

    @Test
    void aSendThatCannotStartCancelsThePostedReceive() {
        DeviceException refused = new DeviceException(ErrorClass.ERR_OTHER, "no link");
        assertSame(refused, assertThrows(DeviceException.class, () -> exchange(device(refused))));
        assertEquals(List.of("irecv", "isend", "cancel"), calls);
    }

    @Test
    void aFailedSendIsRaisedOnceBothAreDone() {
        DeviceRequest send = new DeviceRequest();
        send.complete(1, 2, 0, ErrorClass.ERR_OTHER);
        receive.complete(1, 2, 0, ErrorClass.SUCCESS);
        DeviceException e = assertThrows(DeviceException.class, () -> exchange(device(send)));
        assertEquals(ErrorClass.ERR_OTHER, e.errorClass());
        assertEquals(List.of("irecv", "isend", "await", "await"), calls);
    }
}
