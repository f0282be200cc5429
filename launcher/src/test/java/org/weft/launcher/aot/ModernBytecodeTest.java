package org.weft.launcher.aot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * picocli's classes (Java 5) rewritten as Java 8 classes that the JDK's AOT cache can hold: every class passes the
 * split verifier (stack maps made), the jar's other entries are kept, and a jar without old classes is not touched.
 */
class ModernBytecodeTest {
    @TempDir
    Path directory;

    @Test
    void picocliBecomesVerifiableJava8Classes() throws Exception {
        Path jar = directory.resolve("picocli.jar");
        Files.copy(Path.of(CommandLine.class.getProtectionDomain().getCodeSource().getLocation().toURI()), jar);
        List<String> before = entries(jar);
        Set<PosixFilePermission> readable = PosixFilePermissions.fromString("rw-r--r--");
        Files.setPosixFilePermissions(jar, readable);
        assertTrue(versions(jar).stream().anyMatch(v -> v < ModernBytecode.STACK_MAPS_FROM),
                "picocli's jar has Java 5 classes to start with");

        int rewritten = ModernBytecode.rewrite(jar);

        assertTrue(rewritten > 100, "picocli's classes rewritten: " + rewritten);
        assertEquals(before, entries(jar), "every entry kept, in order");
        assertEquals(readable, Files.getPosixFilePermissions(jar), "others may still read it");
        assertTrue(versions(jar).stream().allMatch(v -> v >= ModernBytecode.STACK_MAPS_FROM), "no old class left");
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
            for (String entry : entries(jar)) {
                if (entry.endsWith(".class") && !entry.startsWith("META-INF/")) {
                    Class<?> type = Class.forName(entry.replace('/', '.').replace(".class", ""), false, loader);
                    type.getDeclaredMethods(); // links the class: the verifier checks every method's stack maps
                }
            }
        }
    }

    @Test
    void aJarWithoutOldClassesIsLeftAlone() throws Exception {
        Path jar = directory.resolve("picocli.jar");
        Files.copy(Path.of(CommandLine.class.getProtectionDomain().getCodeSource().getLocation().toURI()), jar);
        ModernBytecode.rewrite(jar);
        FileTime modified = FileTime.fromMillis(1_000_000_000_000L);
        Files.setLastModifiedTime(jar, modified);

        assertEquals(0, ModernBytecode.rewrite(jar));
        assertEquals(modified, Files.getLastModifiedTime(jar), "the jar is untouched");
    }

    private static List<String> entries(Path jar) throws Exception {
        List<String> names = new ArrayList<>();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            zip.stream().map(ZipEntry::getName).forEach(names::add);
        }
        return names;
    }

    private static List<Integer> versions(Path jar) throws Exception {
        List<Integer> versions = new ArrayList<>();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            for (ZipEntry entry : zip.stream().toList()) {
                if (entry.getName().endsWith(".class") && !entry.getName().startsWith("META-INF/")) {
                    byte[] header = zip.getInputStream(entry).readNBytes(8);
                    versions.add((header[6] & 0xff) << 8 | header[7] & 0xff);
                }
            }
        }
        return versions;
    }
}
