package org.weft.launcher.bootstrap;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.weft.adi.ErrorClass;
import org.weft.adi.bootstrap.RefusedRequestException;

/**
 * {@code MPI_Publish_name}, {@code MPI_Lookup_name} and {@code MPI_Unpublish_name}: service names to port names.
 * By default kept by the launcher for its job's life (MPI's scope of a name is the implementation's to choose;
 * Open MPI's is the job's mpirun unless an ompi-server is named). With a shared directory ({@code weftrun --names
 * DIR}, the same for several weftruns) each name is a file there, so jobs find each other's ports, as through
 * Open MPI's ompi-server: a name is taken atomically (a hard link to a file written whole), looked up by reading
 * it, and given back by deleting it. Thread-safe.
 */
final class NameService {
    private final Map<String, String> ports = new HashMap<>();
    /** Where names are shared with other jobs, or {@code null}. */
    private volatile Path directory;

    /** Shares this job's names with every job given {@code shared}. */
    void shareIn(Path shared) {
        this.directory = shared;
    }

    synchronized void publish(String service, String port) throws RefusedRequestException {
        Path shared = directory;
        if (shared != null) {
            publishIn(shared, service, port);
            return;
        }
        String old = ports.putIfAbsent(service, port);
        if (old != null) {
            throw taken(service, old);
        }
    }

    synchronized String lookup(String service) throws RefusedRequestException {
        Path shared = directory;
        String port = shared != null ? read(shared, service) : ports.get(service);
        if (port == null) {
            throw new RefusedRequestException(ErrorClass.ERR_NAME, "no port is published under '" + service + "'");
        }
        return port;
    }

    synchronized void unpublish(String service, String port) throws RefusedRequestException {
        Path shared = directory;
        if (!port.equals(shared != null ? read(shared, service) : ports.get(service))) {
            throw new RefusedRequestException(ErrorClass.ERR_SERVICE, "'" + service + "' is not published for "
                    + port);
        }
        if (shared == null) {
            ports.remove(service);
            return;
        }
        try {
            Files.deleteIfExists(fileOf(shared, service));
        } catch (IOException e) {
            throw new RefusedRequestException(ErrorClass.ERR_SERVICE, "cannot unpublish '" + service + "' in "
                    + shared + ": " + e.getMessage());
        }
    }

    private static void publishIn(Path shared, String service, String port) throws RefusedRequestException {
        Path file = fileOf(shared, service);
        Path written = null;
        try {
            written = Files.createTempFile(shared, ".publishing-", "");
            Files.writeString(written, port);
            Files.createLink(file, written); // atomic: fails if another job took the name meanwhile
        } catch (FileAlreadyExistsException e) {
            throw taken(service, read(shared, service));
        } catch (IOException e) {
            throw new RefusedRequestException(ErrorClass.ERR_SERVICE, "cannot publish '" + service + "' in "
                    + shared + ": " + e.getMessage());
        } finally {
            deleteQuietly(written);
        }
    }

    private static String read(Path shared, String service) throws RefusedRequestException {
        try {
            return Files.readString(fileOf(shared, service), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new RefusedRequestException(ErrorClass.ERR_NAME, "cannot look '" + service + "' up in " + shared
                    + ": " + e.getMessage());
        }
    }

    /** A service's file: its name URL-encoded, so that any name is one file name. */
    private static Path fileOf(Path shared, String service) {
        return shared.resolve("service-" + URLEncoder.encode(service, StandardCharsets.UTF_8));
    }

    private static RefusedRequestException taken(String service, String port) {
        return new RefusedRequestException(ErrorClass.ERR_SERVICE, "the service name '" + service
                + "' is published already (for port " + port + ")");
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // a temporary file left behind is harmless
            }
        }
    }
}
