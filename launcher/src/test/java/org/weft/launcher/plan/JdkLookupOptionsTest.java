package org.weft.launcher.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.spi.SelectorProvider;
import java.security.Security;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ranks are told what their JDK would look up: the same values, only cheaper to find. */
class JdkLookupOptionsTest {
    @Test
    void theNamedProviderIsTheOneTheJdkTakesWithoutIt() {
        // this JVM's class path offers no provider and sets no property: the JDK's default
        assertEquals(JdkLookupOptions.LINUX_SELECTOR_PROVIDER, SelectorProvider.provider().getClass().getName());
        assertEquals(List.of("-Djava.nio.channels.spi.SelectorProvider=" + JdkLookupOptions.LINUX_SELECTOR_PROVIDER,
                "-Djdk.includeInExceptions=" + Security.getProperty("jdk.includeInExceptions")),
                JdkLookupOptions.jvmOptions());
    }

    @Test
    void onlyAPublicConcreteProviderClassOfTheJdkIsNamed() {
        assertTrue(JdkLookupOptions.namable(JdkLookupOptions.LINUX_SELECTOR_PROVIDER));
        assertFalse(JdkLookupOptions.namable("java.lang.String"), "not a provider");
        assertFalse(JdkLookupOptions.namable(SelectorProvider.class.getName()), "abstract");
        assertFalse(JdkLookupOptions.namable("sun.nio.ch.NoSuchSelectorProvider"), "not in this JDK");
    }

    @Test
    void theLaunchersOwnSystemPropertyWinsOverTheSecurityProperty() {
        String before = System.getProperty(JdkLookupOptions.INCLUDE_IN_EXCEPTIONS);
        try {
            System.setProperty(JdkLookupOptions.INCLUDE_IN_EXCEPTIONS, "hostInfo,jar");
            assertEquals("hostInfo,jar", JdkLookupOptions.includeInExceptions());
        } finally {
            if (before == null) {
                System.clearProperty(JdkLookupOptions.INCLUDE_IN_EXCEPTIONS);
            } else {
                System.setProperty(JdkLookupOptions.INCLUDE_IN_EXCEPTIONS, before);
            }
        }
    }
}
