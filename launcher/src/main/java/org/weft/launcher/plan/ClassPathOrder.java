package org.weft.launcher.plan;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * Which comes first on a rank's class path: the program's entries or Weft's runtime jars. The JVM looks a class up
 * entry by entry, opening each jar on the way; a program's main class behind Weft's 13 jars (~2 800 entries) cost each
 * rank ~25 ms of CPU to open them all (docs/performance.md, "sixth session"), where in front of them it costs nothing.
 * So the program's class path comes first, unless one of its entries could hold a class of Weft's own packages
 * ({@link #WEFT_PACKAGES}: its copy of Netty, Open MPI's {@code mpi.jar}): then Weft's jars come first, so that Weft's
 * classes win over the program's copies, all of them. (The JDK 25 AOT cache serves the classes it holds whatever the
 * order; the order decides only the others, so a copy behind Weft's would mix versions.)
 *
 * <p>An entry may hold Weft's classes when it is a directory with one of those packages' directories, a jar with one
 * of their entries or with a {@code Class-Path} of its own (the jars it names come next), or anything the launcher
 * cannot look into: a wildcard ({@code lib/*}), a file that is no jar, an unreadable jar, an entry missing here
 * (another host may have it).
 */
final class ClassPathOrder {
    /** The packages of every class in Weft's runtime jars, as directory prefixes ({@code ClassPathOrderTest}). */
    static final List<String> WEFT_PACKAGES = List.of("mpi/", "org/weft/", "io/netty/", "net/jpountz/", "picocli/");

    /** Each class path already looked at: a job's ranks share a few. */
    private final ConcurrentHashMap<List<String>, Boolean> programFirst = new ConcurrentHashMap<>();

    /** Whether {@code programClassPath} may come before Weft's jars: none of its entries holds Weft's packages. */
    boolean programFirst(List<String> programClassPath) {
        return programFirst.computeIfAbsent(programClassPath,
                entries -> entries.stream().noneMatch(ClassPathOrder::mayHoldWeftClasses));
    }

    /** Whether class path entry {@code entry} may hold a class of one of {@link #WEFT_PACKAGES}. */
    static boolean mayHoldWeftClasses(String entry) {
        if (entry.endsWith("*")) {
            return true;
        }
        Path path = Path.of(entry.isEmpty() ? "." : entry);
        if (Files.isDirectory(path)) {
            return WEFT_PACKAGES.stream().anyMatch(p -> Files.exists(path.resolve(p)));
        }
        String name = path.getFileName().toString().toLowerCase(Locale.ROOT);
        return !Files.isRegularFile(path) || !(name.endsWith(".jar") || name.endsWith(".zip"))
                || jarMayHoldWeftClasses(path);
    }

    private static boolean jarMayHoldWeftClasses(Path jar) {
        try (JarFile file = new JarFile(jar.toFile(), false)) {
            Manifest manifest = file.getManifest();
            if (manifest != null && manifest.getMainAttributes().containsKey(Attributes.Name.CLASS_PATH)) {
                return true;
            }
            return file.stream().anyMatch(e -> WEFT_PACKAGES.stream().anyMatch(e.getName()::startsWith));
        } catch (IOException | RuntimeException e) {
            return true;
        }
    }
}
