package org.weft.mm.module.tcp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@link PathSettings} of every wide-area path of a job: the defaults ({@code tcp_path_defaults}) with, for a
 * pair of sites, what {@code tcp_path_file} and then {@code tcp_paths} (what {@code weftrun --path} sets) declare
 * for it. A pair is unordered ({@code a:b} is {@code b:a}); {@code *} stands for any site. Entries are
 * {@code SITE:SITE SETTINGS}, separated by {@code ;} or new lines; {@code #} starts a comment in the file.
 */
final class PathTable {
    private final PathSettings defaults;
    /** Per pair ("a:b" with a <= b, or with a "*"), the settings text, applied in declaration order. */
    private final Map<String, String> declared = new HashMap<>();

    private PathTable(PathSettings defaults) {
        this.defaults = defaults;
    }

    /** The table the parameters declare; throws {@link IllegalArgumentException} saying what is wrong. */
    static PathTable of(String defaults, String file, String paths) {
        PathTable table = new PathTable(PathSettings.DEFAULT.with(defaults));
        if (!file.isBlank()) {
            try {
                table.declare(Files.readString(Path.of(file)), "tcp_path_file " + file);
            } catch (IOException e) {
                throw new UncheckedIOException("tcp_path_file: cannot read " + file, e);
            }
        }
        table.declare(paths, "tcp_paths");
        return table;
    }

    private void declare(String text, String where) {
        for (String line : text.split("[;\n]")) {
            int hash = line.indexOf('#');
            String entry = (hash >= 0 ? line.substring(0, hash) : line).strip();
            if (entry.isEmpty()) {
                continue;
            }
            String[] parts = entry.split("\\s+", 2);
            String[] sites = parts[0].split(":");
            if (sites.length != 2 || sites[0].isEmpty() || sites[1].isEmpty() || parts.length < 2) {
                throw new IllegalArgumentException(where + ": '" + entry + "' is not SITE:SITE key=value,...");
            }
            String key = key(sites[0], sites[1]);
            String settings = parts[1].strip();
            defaults.with(settings); // refuses bad settings now, not at the first message
            declared.merge(key, settings, (old, added) -> old + "," + added);
        }
    }

    /** The settings of the path between sites {@code a} and {@code b}. */
    PathSettings settings(String a, String b) {
        PathSettings s = defaults;
        for (String key : List.of(key("*", "*"), key(a, "*"), key(b, "*"), key(a, b))) {
            String spec = declared.get(key);
            if (spec != null) {
                s = s.with(spec);
            }
        }
        return s;
    }

    private static String key(String a, String b) {
        return a.compareTo(b) <= 0 ? a + ":" + b : b + ":" + a;
    }
}
