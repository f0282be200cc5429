package org.weft.launcher.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.spi.SelectorProvider;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ranks are told the selector provider the JDK would take, and only one the property can name. */
class SelectorProviderOptionTest {
    @Test
    void theNamedProviderIsTheOneTheJdkTakesWithoutIt() {
        // this JVM's class path offers no provider and sets no property: the JDK's default
        assertEquals(SelectorProviderOption.LINUX_DEFAULT, SelectorProvider.provider().getClass().getName());
        assertEquals(List.of("-Djava.nio.channels.spi.SelectorProvider=" + SelectorProviderOption.LINUX_DEFAULT),
                SelectorProviderOption.jvmOptions());
    }

    @Test
    void onlyAPublicConcreteProviderClassOfTheJdkIsNamed() {
        assertTrue(SelectorProviderOption.namable(SelectorProviderOption.LINUX_DEFAULT));
        assertFalse(SelectorProviderOption.namable("java.lang.String"), "not a provider");
        assertFalse(SelectorProviderOption.namable(SelectorProvider.class.getName()), "abstract");
        assertFalse(SelectorProviderOption.namable("sun.nio.ch.NoSuchSelectorProvider"), "not in this JDK");
    }
}
