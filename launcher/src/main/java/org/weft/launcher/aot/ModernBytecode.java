package org.weft.launcher.aot;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassFileVersion;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassTransform;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * Rewrites the classes of a jar that are older than Java 6 (class file version 50) as Java 8 classes (version 52),
 * with the stack maps the JDK's verifier needs from version 50 on; the code itself is unchanged. Why: the JDK's AOT
 * cache cannot hold such old classes ("Old class has been linked"), and picocli is compiled for Java 5, so the
 * launcher loaded, verified (by the old, type-inferring verifier) and linked its ~170 classes from the jar on every
 * start: 0.15 s of the launcher's ~0.4 s of CPU (`weftrun --version`, issue 20 item 12). The build runs this on
 * {@code launcher/target/lib} before it trains the caches. A jar with no old class is left untouched (its
 * modification time is part of the caches' fingerprint). Entries keep their order and times (reproducible builds).
 * Usage: {@code ModernBytecode DIRECTORY} (every jar in it).
 */
public final class ModernBytecode {
    /** The first class file version that must carry stack maps (Java 6). */
    static final int STACK_MAPS_FROM = 50;
    /** The version old classes become (Java 8: what the AOT cache and the split verifier take). */
    static final int TARGET = 52;

    private ModernBytecode() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: ModernBytecode DIRECTORY");
        }
        try (DirectoryStream<Path> jars = Files.newDirectoryStream(Path.of(args[0]), "*.jar")) {
            for (Path jar : jars) {
                int rewritten = rewrite(jar);
                if (rewritten > 0) {
                    System.out.println("ModernBytecode: " + rewritten + " classes of " + jar.getFileName()
                            + " rewritten as class file version " + TARGET);
                }
            }
        }
    }

    /** Rewrites {@code jar} in place if it has old classes; returns how many it rewrote. */
    public static int rewrite(Path jar) throws IOException {
        if (!hasOldClasses(jar)) {
            return 0;
        }
        Path rewritten = Files.createTempFile(jar.getParent(), jar.getFileName().toString(), ".tmp");
        try {
            int count;
            try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null);
                 InputStream in = Files.newInputStream(jar);
                 OutputStream out = Files.newOutputStream(rewritten)) {
                count = copy(in, out, modernizer(loader));
            }
            keepPermissions(jar, rewritten);
            Files.move(rewritten, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return count;
        } finally {
            Files.deleteIfExists(rewritten);
        }
    }

    /** Gives {@code copy} the permissions of {@code original} (a temporary file is private; others run the jar). */
    private static void keepPermissions(Path original, Path copy) throws IOException {
        if (Files.getFileStore(original).supportsFileAttributeView(PosixFileAttributeView.class)) {
            Files.setPosixFilePermissions(copy, Files.getPosixFilePermissions(original));
        }
    }

    /**
     * A class file API that writes stack maps, resolving the class hierarchy (which stack maps need) from the JDK
     * and from the jar itself.
     */
    private static ClassFile modernizer(ClassLoader jar) {
        ClassHierarchyResolver hierarchy = ClassHierarchyResolver.defaultResolver()
                .orElse(ClassHierarchyResolver.ofResourceParsing(jar));
        return ClassFile.of(ClassFile.ClassHierarchyResolverOption.of(hierarchy),
                ClassFile.StackMapsOption.GENERATE_STACK_MAPS);
    }

    private static boolean hasOldClasses(Path jar) throws IOException {
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(jar))) {
            for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                if (isClass(entry) && isOld(in.readNBytes(8))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Copies the entries of {@code jar} to {@code out}, old classes rewritten; returns how many were. */
    private static int copy(InputStream jar, OutputStream out, ClassFile classFile) throws IOException {
        int count = 0;
        try (ZipInputStream in = new ZipInputStream(jar); ZipOutputStream zip = new ZipOutputStream(out)) {
            for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                byte[] bytes = in.readAllBytes();
                if (isClass(entry) && isOld(bytes)) {
                    bytes = modernized(classFile, bytes);
                    count++;
                }
                ZipEntry copied = new ZipEntry(entry.getName());
                copied.setTime(entry.getTime());
                zip.putNextEntry(copied);
                zip.write(bytes);
                zip.closeEntry();
            }
        }
        return count;
    }

    /** A class of the jar's base (versioned classes under META-INF are newer anyway). */
    private static boolean isClass(ZipEntry entry) {
        return entry.getName().endsWith(".class") && !entry.getName().startsWith("META-INF/");
    }

    /** Whether the class file that starts with {@code header} (at least 8 bytes) is older than Java 6. */
    private static boolean isOld(byte[] header) {
        return header.length >= 8 && ((header[6] & 0xff) << 8 | header[7] & 0xff) < STACK_MAPS_FROM;
    }

    /** The class in {@code bytes} as version {@link #TARGET}, every method's code rebuilt so that it has stack maps. */
    static byte[] modernized(ClassFile classFile, byte[] bytes) {
        ClassModel model = classFile.parse(bytes);
        ClassTransform version = (clazz, element) -> clazz.with(element instanceof ClassFileVersion
                ? ClassFileVersion.of(TARGET, 0) : element);
        return classFile.transformClass(model, version.andThen(
                ClassTransform.transformingMethodBodies((code, element) -> code.with(element))));
    }
}
