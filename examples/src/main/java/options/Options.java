package options;

import java.util.HashMap;
import java.util.Map;

/** An example's arguments, each {@code NAME=VALUE}. */
public final class Options {
    private Options() {
    }

    /** The arguments as a map of names to values; an argument without {@code =} is an error. */
    public static Map<String, String> parse(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("argument '" + arg + "' is not NAME=VALUE");
            }
            options.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        return options;
    }
}
