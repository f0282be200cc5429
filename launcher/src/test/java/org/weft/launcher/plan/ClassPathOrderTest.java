package org.weft.launcher.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The program's class path goes before Weft's jars on a rank's class path unless it may hold Weft's own classes. */
class ClassPathOrderTest {
    @TempDir
    Path dir;

    @Test
    void aProgramOfItsOwnClassesComesFirst() throws IOException {
        Path classes = Files.createDirectories(dir.resolve("classes/org/example"));
        Files.writeString(classes.resolve("Hello.class"), "");
        Path jar = jar("app.jar", null, "org/example/Main.class", "META-INF/services/x");
        assertEquals(List.of("-cp", dir.resolve("classes") + ":" + jar + ":weft.jar", "Hello"),
                tail(command(List.of(dir.resolve("classes").toString(), jar.toString())), 3));
    }

    @Test
    void aClassPathThatMayHoldWeftsPackagesComesAfterWeftsJars() throws IOException {
        Path mpi = Files.createDirectories(dir.resolve("with-mpi/mpi"));
        Files.writeString(mpi.resolve("MPI.class"), ""); // Open MPI's bindings, unpacked
        Path ownClasses = Files.createDirectories(dir.resolve("own"));
        for (String entry : List.of(jar("netty-all.jar", null, "io/netty/buffer/ByteBuf.class").toString(),
                jar("mpi.jar", null, "mpi/MPI.class").toString(),
                jar("launcher.jar", "lib/netty.jar", "org/example/Main.class").toString(),
                dir.resolve("with-mpi").toString(), dir.resolve("lib") + "/*", dir.resolve("missing.jar").toString(),
                Files.writeString(dir.resolve("notes.txt"), "").toString(),
                Files.writeString(dir.resolve("broken.jar"), "not a jar").toString())) {
            assertTrue(ClassPathOrder.mayHoldWeftClasses(entry), entry);
            assertEquals(List.of("-cp", "weft.jar:" + ownClasses + ":" + entry, "Hello"),
                    tail(command(List.of(ownClasses.toString(), entry)), 3), entry);
        }
        assertFalse(ClassPathOrder.mayHoldWeftClasses(ownClasses.toString()));
    }

    /** Every class of Weft's runtime jars is in one of the packages the check looks for. */
    @Test
    void theCheckedPackagesCoverEveryClassOfWeftsRuntimeJars() throws IOException, URISyntaxException {
        List<Class<?>> oneOfEach = List.of(mpi.MPI.class, org.weft.adi.param.Parameter.class,
                org.weft.mm.ModuleCatalog.class, RankCommands.class, net.jpountz.lz4.LZ4Factory.class,
                io.netty.buffer.ByteBuf.class, io.netty.handler.codec.ByteToMessageDecoder.class,
                io.netty.util.Version.class, io.netty.handler.ssl.SslHandler.class,
                io.netty.resolver.AddressResolver.class, io.netty.channel.Channel.class,
                io.netty.channel.unix.Socket.class, picocli.CommandLine.class);
        for (Class<?> type : oneOfEach) {
            Path location = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
            for (String name : classesIn(location)) {
                assertTrue(ClassPathOrder.WEFT_PACKAGES.stream().anyMatch(name::startsWith), name + " in " + location);
            }
        }
    }

    private static List<String> classesIn(Path location) throws IOException {
        List<String> names = new ArrayList<>();
        if (Files.isDirectory(location)) {
            try (Stream<Path> files = Files.walk(location)) {
                files.map(p -> location.relativize(p).toString()).forEach(names::add);
            }
        } else {
            try (JarFile jar = new JarFile(location.toFile())) {
                jar.stream().map(JarEntry::getName).forEach(names::add);
            }
        }
        return names.stream().filter(n -> n.endsWith(".class") && !n.startsWith("META-INF/")
                && !n.equals("module-info.class")).toList();
    }

    private Path jar(String name, String classPath, String... entries) throws IOException {
        Path jar = dir.resolve(name);
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (classPath != null) {
            manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, classPath);
        }
        try (OutputStream file = Files.newOutputStream(jar);
             JarOutputStream out = new JarOutputStream(file, manifest)) {
            for (String entry : entries) {
                out.putNextEntry(new JarEntry(entry));
                out.closeEntry();
            }
        }
        return jar;
    }

    private static List<String> command(List<String> programClassPath) {
        JobPlan plan = new JobPlan(1, programClassPath, "Hello", List.of(), Map.of(), List.of(), false,
                (Duration) null);
        return new RankCommands("java", List.of("weft.jar")).launch(plan, new JobIdentity("j", "s", "127.0.0.1:1"), 0)
                .command();
    }

    private static List<String> tail(List<String> list, int n) {
        return list.subList(list.size() - n, list.size());
    }
}
