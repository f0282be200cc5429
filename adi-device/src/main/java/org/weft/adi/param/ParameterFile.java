package org.weft.adi.param;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parameter values from a file, as Open MPI's {@code mca-params.conf}: one {@code name = value} per line, {@code #}
 * starts a comment, blank lines are ignored. The file is {@code $WEFT_PARAM_FILE}, else
 * {@code $HOME/.weft/params.conf}; a missing file means no values.
 */
public final class ParameterFile {
    /** The environment variable naming the file. */
    public static final String ENV = "WEFT_PARAM_FILE";

    private ParameterFile() {
    }

    /** The file this process reads: {@code $WEFT_PARAM_FILE}, else {@code ~/.weft/params.conf}. */
    public static Path location(Map<String, String> environment) {
        String named = environment.get(ENV);
        if (named != null && !named.isBlank()) {
            return Path.of(named);
        }
        return Path.of(System.getProperty("user.home"), ".weft", "params.conf");
    }

    /** The values in {@code file}, by parameter name; empty when the file does not exist. */
    public static Map<String, String> read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (NoSuchFileException e) {
            return Map.of();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the parameter file " + file, e);
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int hash = line.indexOf('#');
            String text = (hash >= 0 ? line.substring(0, hash) : line).strip();
            if (text.isEmpty()) {
                continue;
            }
            int eq = text.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(file + ":" + (i + 1) + ": expected name = value, found '" + text
                        + "'");
            }
            values.put(text.substring(0, eq).strip(), text.substring(eq + 1).strip());
        }
        return values;
    }
}
