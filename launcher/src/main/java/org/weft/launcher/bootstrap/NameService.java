package org.weft.launcher.bootstrap;

import java.util.HashMap;
import java.util.Map;
import org.weft.adi.ErrorClass;
import org.weft.adi.bootstrap.RefusedRequestException;

/**
 * {@code MPI_Publish_name}, {@code MPI_Lookup_name} and {@code MPI_Unpublish_name} of one job: service names to
 * port names, kept by the launcher for the job's life (MPI's scope of a name is the implementation's to choose;
 * Open MPI's is the job's mpirun unless an ompi-server is named). Thread-safe.
 */
final class NameService {
    private final Map<String, String> ports = new HashMap<>();

    synchronized void publish(String service, String port) throws RefusedRequestException {
        String old = ports.putIfAbsent(service, port);
        if (old != null) {
            throw new RefusedRequestException(ErrorClass.ERR_SERVICE, "the service name '" + service
                    + "' is published already (for port " + old + ")");
        }
    }

    synchronized String lookup(String service) throws RefusedRequestException {
        String port = ports.get(service);
        if (port == null) {
            throw new RefusedRequestException(ErrorClass.ERR_NAME, "no port is published under '" + service + "'");
        }
        return port;
    }

    synchronized void unpublish(String service, String port) throws RefusedRequestException {
        if (!port.equals(ports.get(service))) {
            throw new RefusedRequestException(ErrorClass.ERR_SERVICE, "'" + service + "' is not published for "
                    + port);
        }
        ports.remove(service);
    }
}
