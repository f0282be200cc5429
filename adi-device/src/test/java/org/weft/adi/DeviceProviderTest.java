package org.weft.adi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The device provider is the class path's first: found without looking past it, since looking for all of them
 * opened every jar of a rank's class path.
 */
class DeviceProviderTest {
    @TempDir
    Path dir;

    /** A provider for the test, named by the services files written here. */
    public static final class TestProvider implements DeviceProvider {
        @Override
        public String name() {
            return "test";
        }

        @Override
        public Device open(WorldConfig config) {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    void theFirstProviderIsFoundWithoutLookingForOthers() throws IOException {
        Path first = services("first", "# Weft's device\n\n  " + TestProvider.class.getName() + "  # the one\n");
        Path second = services("second", "org.example.NotLoaded\n");
        RecordingLoader loader = new RecordingLoader(first, second);
        DeviceProvider provider = withContextLoader(loader, DeviceProvider::load);
        assertInstanceOf(TestProvider.class, provider);
        assertEquals(List.of(), loader.enumerated, "no look for a second services file (it opens every jar)");
    }

    @Test
    void weftsOwnDeviceIsTakenWithoutReadingAServicesFile() throws IOException {
        RecordingLoader loader = new RecordingLoader(services("other", "org.example.NotLoaded\n"));
        assertInstanceOf(TestProvider.class, DeviceProvider.load(loader, TestProvider.class.getName()));
        assertEquals(List.of(), loader.looked, "no resource looked up");
    }

    @Test
    void aServicesFileNamingNoUsableClassIsAClearError() throws IOException {
        for (String content : List.of("# nothing\n", "org.example.Missing\n", String.class.getName() + "\n")) {
            RecordingLoader loader = new RecordingLoader(services("bad" + content.length(), content));
            DeviceException e = assertThrows(DeviceException.class,
                    () -> withContextLoader(loader, DeviceProvider::load));
            assertEquals(ErrorClass.ERR_INTERN, e.errorClass(), e.getMessage());
            assertTrue(e.getMessage().contains("provider"), e.getMessage());
        }
    }

    @Test
    void withoutAProviderTheErrorSaysWhichJarIsMissing() {
        RecordingLoader loader = new RecordingLoader();
        DeviceException e = assertThrows(DeviceException.class, () -> withContextLoader(loader, DeviceProvider::load));
        assertTrue(e.getMessage().contains("multimethod-device"), e.getMessage());
    }

    private Path services(String name, String content) throws IOException {
        Path file = dir.resolve(name).resolve(DeviceProvider.SERVICES_FILE);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
        return dir.resolve(name);
    }

    private static <T> T withContextLoader(ClassLoader loader, Supplier<T> action) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            return action.get();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** A class path of directories over this test's classes that records each look for all copies of a resource. */
    private static final class RecordingLoader extends URLClassLoader {
        final List<String> enumerated = new ArrayList<>();
        final List<String> looked = new ArrayList<>();

        RecordingLoader(Path... entries) {
            super(urls(entries), DeviceProviderTest.class.getClassLoader());
        }

        private static URL[] urls(Path... entries) {
            URL[] urls = new URL[entries.length];
            for (int i = 0; i < entries.length; i++) {
                try {
                    urls[i] = entries[i].toUri().toURL();
                } catch (IOException e) {
                    throw new IllegalArgumentException(e);
                }
            }
            return urls;
        }

        @Override
        public URL getResource(String name) {
            looked.add(name);
            URL own = findResource(name); // this class path first: the test's own has no services file
            return own != null ? own : super.getResource(name);
        }

        @Override
        public Enumeration<URL> getResources(String name) throws IOException {
            if (name.equals(DeviceProvider.SERVICES_FILE)) {
                enumerated.add(name);
            }
            return super.getResources(name);
        }
    }
}
