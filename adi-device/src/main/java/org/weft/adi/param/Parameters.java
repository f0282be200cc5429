package org.weft.adi.param;

import java.util.Map;
import java.util.Objects;

/**
 * The values of declared parameters for one process. Precedence: values given explicitly (the launcher's
 * command line, a test) over the environment ({@link Parameter#environmentName()}) over the parameter file
 * ({@link ParameterFile}) over the default.
 */
public final class Parameters {
    private final Map<String, String> explicit;
    private final Map<String, String> environment;
    private final Map<String, String> file;

    public Parameters(Map<String, String> explicit, Map<String, String> environment) {
        this(explicit, environment, Map.of());
    }

    public Parameters(Map<String, String> explicit, Map<String, String> environment, Map<String, String> file) {
        this.explicit = Map.copyOf(explicit);
        this.environment = Map.copyOf(environment);
        this.file = Map.copyOf(file);
    }

    /** Explicit values over this process's environment over its parameter file. */
    public static Parameters of(Map<String, String> explicit) {
        Map<String, String> environment = System.getenv();
        return new Parameters(explicit, environment, ParameterFile.read(ParameterFile.location(environment)));
    }

    public <T> T get(Parameter<T> parameter) {
        String text = explicit.get(parameter.name());
        if (text == null) {
            text = environment.get(parameter.environmentName());
        }
        if (text == null) {
            text = file.get(parameter.name());
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
