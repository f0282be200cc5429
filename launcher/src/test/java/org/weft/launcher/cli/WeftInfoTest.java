package org.weft.launcher.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.weft.mm.ModuleCatalog;

/** weft info tells what ompi_info would: version, JDK, methods here and why not, every parameter and its source. */
class WeftInfoTest {
    private static String info(Map<String, String> environment) {
        StringWriter text = new StringWriter();
        new WeftInfo(new PrintWriter(text, true), environment).print();
        return text.toString();
    }

    @Test
    void versionJdkAndEveryMethodWithItsAvailability() {
        String info = info(Map.of("PATH", "/nonexistent"));
        assertTrue(info.startsWith("Weft " + WeftVersion.version() + "\n"), info);
        assertTrue(info.contains("JDK " + Runtime.version()), info);
        for (String method : ModuleCatalog.known()) {
            assertTrue(info.matches("(?s).*\n  " + method + " +\\S.*"), method + " has a line:\n" + info);
        }
        assertTrue(info.contains("  self       available\n"), info);
        assertTrue(info.contains("Native sites (--site): no mpirun on the PATH"), info);
    }

    @Test
    void aMethodThatCannotRunSaysWhy() {
        String info = info(Map.of("WEFT_SHM_RING_SIZE", "lots"));
        assertTrue(info.contains("  shm        not available: parameter shm_ring_size: cannot read 'lots'"), info);
    }

    @Test
    void everyParameterWithItsValueAndWhereItComesFrom(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("params.conf"), "idle_strategy = spin\n");
        String info = info(Map.of("WEFT_TCP_EAGER_LIMIT", "1k", "WEFT_PARAM_FILE", file.toString()));
        assertTrue(info.contains("parameter \"tcp_eager_limit\" (current value: \"1024\", data source: environment"
                + " WEFT_TCP_EAGER_LIMIT, default: \"65536\", unit: bytes)"), info);
        assertTrue(info.contains("parameter \"idle_strategy\" (current value: \"spin\", data source: file " + file
                + ", default: \"auto\")"), info);
        assertTrue(info.contains("parameter \"report\" (current value: \"0\", data source: default"), info);
        long listed = info.lines().filter(line -> line.startsWith("  parameter \"")).count();
        assertEquals(ModuleCatalog.parameters().size() + org.weft.launcher.plan.AotCache.PARAMETERS.size(), listed);
    }
}
