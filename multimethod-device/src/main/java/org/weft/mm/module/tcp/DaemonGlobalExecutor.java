package org.weft.mm.module.tcp;

import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.internal.ThreadExecutorMap;
import java.lang.reflect.Field;

/**
 * Makes the thread of Netty's {@link GlobalEventExecutor} a daemon. That executor runs the listeners of an event
 * loop's termination, on a thread of its own that Netty makes a non-daemon and that lives on for a quiet period of at
 * least a second after its last task: every rank whose tcp module shut its event loop down kept its JVM alive that
 * second after {@code main} returned (a singleton Hello: 0.7 s of its 1.5 s). Weft waits for its event loop's end
 * itself ({@link TcpModule#shutdown}), so nothing needs that thread to keep the JVM. Done before each event loop
 * starts (again is harmless: the same kind of factory); if Netty's internals were to change, the thread stays as
 * Netty makes it and only the second is lost.
 */
final class DaemonGlobalExecutor {
    private DaemonGlobalExecutor() {
    }

    static void install() {
        try {
            Field factory = GlobalEventExecutor.class.getDeclaredField("threadFactory");
            factory.setAccessible(true);
            factory.set(GlobalEventExecutor.INSTANCE, ThreadExecutorMap.apply(
                    new DefaultThreadFactory("globalEventExecutor", true), GlobalEventExecutor.INSTANCE));
        } catch (ReflectiveOperationException | RuntimeException e) {
            // Netty's own non-daemon thread: correct, a second slower to exit
        }
    }
}
