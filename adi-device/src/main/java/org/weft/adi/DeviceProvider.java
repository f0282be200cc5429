package org.weft.adi;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ServiceLoader;

/**
 * Opens a {@link Device}. Implementations register through {@link ServiceLoader}
 * ({@code META-INF/services/org.weft.adi.DeviceProvider}); the {@code mpi} layer takes the first one found.
 */
public interface DeviceProvider {
    /** Where a provider on the class path names itself. */
    String SERVICES_FILE = "META-INF/services/" + DeviceProvider.class.getName();
    /** Weft's own device (multimethod-device), taken when it is on the class path. */
    String WEFTS_OWN = "org.weft.mm.MultimethodProvider";

    /** A short name, e.g. {@code multimethod}. */
    String name();

    /** Opens the device for one process of the world described by {@code config}. */
    Device open(WorldConfig config);

    /**
     * Weft's own device ({@link #WEFTS_OWN}) when it is on the class path, else the first provider on the class path,
     * else a clear error (Weft's device jar is missing).
     */
    static DeviceProvider load() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        return load(loader != null ? loader : ClassLoader.getSystemClassLoader(), WEFTS_OWN);
    }

    /**
     * {@code preferred} from {@code loader} if it has that class, else the first provider it names in a services
     * file. The preferred class comes from a rank's AOT cache, where looking for a resource opens the class path's
     * jars on the way (~10 ms of a rank's CPU for Weft's first five); and the first {@link #SERVICES_FILE} is read
     * here rather than by {@link ServiceLoader}, which (JDK 25) looks for a second file as soon as it has the first,
     * and so opens every jar of the class path (~25 ms; docs/performance.md, "sixth session"). Providers in named
     * modules, which have no such file, are still found by the {@link ServiceLoader}.
     */
    static DeviceProvider load(ClassLoader loader, String preferred) {
        try {
            Class.forName(preferred, false, loader);
            return instantiate(preferred, loader);
        } catch (ClassNotFoundException e) {
            // not on this class path: a services file names the device
        }
        URL services = loader.getResource(SERVICES_FILE);
        if (services != null) {
            return instantiate(firstProviderName(services), loader);
        }
        return ServiceLoader.load(DeviceProvider.class, loader).findFirst().orElseThrow(() -> new DeviceException(
                ErrorClass.ERR_INTERN, "no Weft device on the class path (add multimethod-device)"));
    }

    /** The first class named in a services file (a line, less its {@code #} comment and blanks). */
    private static String firstProviderName(URL services) {
        try (InputStream in = services.openStream();
             BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                int comment = line.indexOf('#');
                String name = (comment >= 0 ? line.substring(0, comment) : line).strip();
                if (!name.isEmpty()) {
                    return name;
                }
            }
        } catch (IOException e) {
            throw new DeviceException(ErrorClass.ERR_INTERN, "cannot read " + services + ": " + e.getMessage());
        }
        throw new DeviceException(ErrorClass.ERR_INTERN, services + " names no device provider");
    }

    private static DeviceProvider instantiate(String className, ClassLoader loader) {
        try {
            Class<?> type = Class.forName(className, true, loader);
            return (DeviceProvider) type.getConstructor().newInstance();
        } catch (ReflectiveOperationException | ClassCastException | LinkageError e) {
            Throwable cause = e instanceof InvocationTargetException i && i.getCause() != null ? i.getCause() : e;
            throw new DeviceException(ErrorClass.ERR_INTERN, "cannot make the device provider " + className + ": "
                    + cause);
        }
    }
}
