package org.weft.launcher.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.weft.launcher.plan.AppContext;

/**
 * An appfile ({@code weftrun --app FILE}, Open MPI's {@code mpirun --app}): one app context per line, written as
 * after a {@code :} on the command line ({@code -np 2 -cp ocean.jar Ocean 10}); blank lines and lines starting with
 * {@code #} are skipped. Words are split at blanks; single or double quotes keep blanks in a word, as in a shell
 * line (without its expansions). The job's options stay on the command line ({@code weftrun --report --app FILE}).
 */
final class AppFile {
    private AppFile() {
    }

    /**
     * The app contexts of {@code lines}, the first line's first.
     *
     * @throws IllegalArgumentException for a file without a context, an unclosed quote or a line that is not an
     *                                  app context, naming the line
     */
    static List<AppContext> parse(String file, List<String> lines, Map<String, String> launcherEnvironment,
                                  Consumer<String> warn) {
        List<AppContext> apps = new ArrayList<>();
        for (int number = 1; number <= lines.size(); number++) {
            String line = lines.get(number - 1).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String where = file + ":" + number;
            try {
                apps.add(AppContextOptions.parse(words(line), apps.size(), launcherEnvironment, warn));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
            }
        }
        if (apps.isEmpty()) {
            throw new IllegalArgumentException("--app " + file + ": no app context in it (lines -np N MAIN ...)");
        }
        return apps;
    }

    /** {@code line} split at blanks outside quotes; the quotes themselves are dropped. */
    static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (quote != 0) {
            throw new IllegalArgumentException("an unclosed " + quote + " quote");
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }
}
