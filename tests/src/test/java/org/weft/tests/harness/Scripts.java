package org.weft.tests.harness;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repository's scripts ({@code bin/...}), found from wherever the tests run. */
public final class Scripts {
    private Scripts() {
    }

    /** {@code relative} in the first directory upwards from here that has it (tests run in the module's dir). */
    public static Path find(String relative) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isExecutable(dir.resolve(relative))) {
                return dir.resolve(relative);
            }
        }
        throw new IllegalStateException(relative + " not found above " + Path.of("").toAbsolutePath());
    }
}
