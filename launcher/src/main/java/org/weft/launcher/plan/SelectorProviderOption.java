package org.weft.launcher.plan;

import java.lang.reflect.Modifier;
import java.nio.channels.spi.SelectorProvider;
import java.util.List;

/**
 * Names the JDK's own selector provider to the ranks ({@code -Djava.nio.channels.spi.SelectorProvider}, the JDK's
 * documented property), so that a rank's first NIO channel (shm's doorbell, tcp) does not look for providers on the
 * class path: that {@link java.util.ServiceLoader} walk opens every jar of it, Weft's 13 with their ~2 800 entries,
 * ~13 ms of each rank's CPU at start-up (docs/performance.md, "sixth session"). The provider is the one the JDK
 * would take anyway when the class path offers none (Weft's jars offer none): JDK 25's default on Linux. Named only
 * when the launcher's JDK, which the ranks run, has that class as a provider a property can name (public, with a
 * public constructor); else the ranks look as before.
 */
final class SelectorProviderOption {
    /** {@code sun.nio.ch.DefaultSelectorProvider}'s choice on Linux (JDK 11 to 25). */
    static final String LINUX_DEFAULT = "sun.nio.ch.EPollSelectorProvider";

    private SelectorProviderOption() {
    }

    /** The option, or none on another system or JDK. */
    static List<String> jvmOptions() {
        if (!System.getProperty("os.name").equals("Linux") || !namable(LINUX_DEFAULT)) {
            return List.of();
        }
        return List.of("-Djava.nio.channels.spi.SelectorProvider=" + LINUX_DEFAULT);
    }

    /** Whether {@code className} is a class of this JDK that the property can name (not loaded, not initialised). */
    static boolean namable(String className) {
        try {
            Class<?> type = Class.forName(className, false, ClassLoader.getPlatformClassLoader());
            return SelectorProvider.class.isAssignableFrom(type) && Modifier.isPublic(type.getModifiers())
                    && !Modifier.isAbstract(type.getModifiers()) && type.getConstructor() != null;
        } catch (ReflectiveOperationException | LinkageError e) {
            return false;
        }
    }
}
