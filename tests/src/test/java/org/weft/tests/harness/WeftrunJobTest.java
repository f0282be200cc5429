package org.weft.tests.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The harness writes weftrun command lines as weftrun reads them. */
class WeftrunJobTest {
    /** {@code --path} takes two values: the class path went between them, and weftrun took the second for MAIN. */
    @Test
    void theClassPathGoesBeforeTheMainClassNotAfterTheFirstOfAnOptionsTwoValues() {
        assertEquals(List.of("--site", "a:1", "--path", "a:b", "streams=4", "--report", "-cp", WeftrunJob.classPath(),
                        "Main", "arg"),
                WeftrunJob.insertClassPath(List.of("--site", "a:1", "--path", "a:b", "streams=4", "--report", "Main",
                        "arg")));
        assertEquals(List.of("--mca", "btl", "self", "-J", "-Xmx64m", "-np", "2", "-cp", WeftrunJob.classPath(),
                        "Main"),
                WeftrunJob.insertClassPath(List.of("--mca", "btl", "self", "-J", "-Xmx64m", "-np", "2", "Main")));
    }

    @Test
    void aGivenClassPathOrJarIsLeftAlone() {
        List<String> withClassPath = List.of("-np", "2", "-cp", "x.jar", "Main");
        assertEquals(withClassPath, WeftrunJob.insertClassPath(withClassPath));
        List<String> jar = List.of("-np", "2", "-jar", "app.jar");
        assertEquals(jar, WeftrunJob.insertClassPath(jar));
    }
}
