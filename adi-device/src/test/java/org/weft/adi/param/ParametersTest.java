package org.weft.adi.param;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParametersTest {
    private static final Parameter<Integer> EAGER = Parameter.integer("shm_eager_limit", 16, "bytes", "doc");
    private static final Parameter<String> METHODS = Parameter.string("methods", "self,shm", "doc");

    @Test
    void explicitBeatsEnvironmentBeatsFileBeatsDefault(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("params.conf");
        Files.writeString(file, """
                # Weft parameters
                shm_eager_limit = 64   # bytes
                methods=tcp

                """);
        Map<String, String> fromFile = ParameterFile.read(file);
        assertEquals(64, new Parameters(Map.of(), Map.of(), fromFile).get(EAGER));
        assertEquals("tcp", new Parameters(Map.of(), Map.of(), fromFile).get(METHODS));
        assertEquals(32, new Parameters(Map.of(), Map.of("WEFT_SHM_EAGER_LIMIT", "32"), fromFile).get(EAGER));
        assertEquals(8, new Parameters(Map.of("shm_eager_limit", "8"), Map.of("WEFT_SHM_EAGER_LIMIT", "32"), fromFile)
                .get(EAGER));
        assertEquals(16, new Parameters(Map.of(), Map.of(), Map.of()).get(EAGER));
    }

    @Test
    void theFileIsNamedByTheEnvironmentOrLivesInTheHomeDirectoryAndMayBeAbsent(@TempDir Path dir) {
        assertEquals(dir.resolve("x.conf"), ParameterFile.location(Map.of(ParameterFile.ENV, dir + "/x.conf")));
        assertTrue(ParameterFile.location(Map.of()).endsWith(Path.of(".weft", "params.conf")));
        assertEquals(Map.of(), ParameterFile.read(dir.resolve("absent.conf")));
    }

    @Test
    void aLineWithoutAValueNamesTheFileAndLine(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bad.conf");
        Files.writeString(file, "methods = tcp\nshm_eager_limit\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ParameterFile.read(file));
        assertTrue(e.getMessage().contains("bad.conf:2"), e.getMessage());
    }
}
