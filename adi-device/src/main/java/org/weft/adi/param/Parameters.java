package org.weft.adi.param;

import java.util.Map;
import java.util.Objects;

/**
 * The values of declared parameters for one process. Precedence: values given explicitly (the launcher's
 * command line, a test) over the environment ({@link Parameter#environmentName()}) over the default.
 */
public final class Parameters {
    private final Map<String, String> explicit;
    private final Map<String, String> environment;

    public Parameters(Map<String, String> explicit, Map<String, String> environment) {
        this.explicit = Map.copyOf(explicit);
        this.environment = Map.copyOf(environment);
    }

    /** Explicit values over this process's environment. */
    public static Parameters of(Map<String, String> explicit) {
        return new Parameters(explicit, System.getenv());
    }

    public <T> T get(Parameter<T> parameter) {
        String text = explicit.get(parameter.name());
        if (text == null) {
            text = environment.get(parameter.environmentName());
        }
        if (text == null) {
            return parameter.defaultValue();
        }
        try {
            return Objects.requireNonNull(parameter.parser().apply(text));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("parameter " + parameter.name() + ": cannot read '" + text
                    + "' as " + (parameter.unit().isEmpty() ? "a value" : parameter.unit()), e);
        }
    }
}
