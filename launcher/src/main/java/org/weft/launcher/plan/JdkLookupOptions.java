package org.weft.launcher.plan;

import java.lang.reflect.Modifier;
import java.nio.channels.spi.SelectorProvider;
import java.security.Security;
import java.util.ArrayList;
import java.util.List;

/**
 * System properties that give a rank's JVM what it would otherwise look up at start-up, each with the value the JDK
 * would find there (docs/performance.md, "sixth session"):
 * <ul>
 * <li>{@code java.nio.channels.spi.SelectorProvider}, the JDK's documented property, naming the provider JDK 25 takes
 * on Linux when the class path offers none (Weft's jars offer none): else a rank's first NIO channel (shm's
 * doorbell, tcp) looks for providers with a {@link java.util.ServiceLoader}, which opens every jar of the class path,
 * Weft's 13 with their ~2 800 entries, ~13 ms of a rank's CPU. Named only when the launcher's JDK, which the ranks
 * run, has that class as a provider the property can name (public, with a public constructor).</li>
 * <li>{@code jdk.includeInExceptions}, which the JDK reads as a system property before it reads it as a security
 * property: the first {@code InetAddress} (the bootstrap connection) reads it, and for the security property the
 * JDK loads and parses its whole {@code java.security} file, ~8 ms of a rank's CPU. The value is the launcher's own
 * (its system property, else the security property of the same JDK's file).</li>
 * </ul>
 */
final class JdkLookupOptions {
    /** {@code sun.nio.ch.DefaultSelectorProvider}'s choice on Linux (JDK 11 to 25). */
    static final String LINUX_SELECTOR_PROVIDER = "sun.nio.ch.EPollSelectorProvider";
    /** What the JDK puts in exception messages (host names, jar names...). */
    static final String INCLUDE_IN_EXCEPTIONS = "jdk.includeInExceptions";

    private JdkLookupOptions() {
    }

    /** The options for a rank's JVM. */
    static List<String> jvmOptions() {
        List<String> options = new ArrayList<>();
        if (System.getProperty("os.name").equals("Linux") && namable(LINUX_SELECTOR_PROVIDER)) {
            options.add("-Djava.nio.channels.spi.SelectorProvider=" + LINUX_SELECTOR_PROVIDER);
        }
        options.add("-D" + INCLUDE_IN_EXCEPTIONS + "=" + includeInExceptions());
        return options;
    }

    /** The value this JVM goes by: its system property, else its security property; none is the empty list. */
    static String includeInExceptions() {
        String value = System.getProperty(INCLUDE_IN_EXCEPTIONS);
        if (value == null) {
            value = Security.getProperty(INCLUDE_IN_EXCEPTIONS);
        }
        return value == null ? "" : value;
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
