package org.weft.launcher.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** Weft's version, as the build stamped it into {@code version.properties}. */
public final class WeftVersion implements IVersionProvider {

    /** The version string, or {@code unknown} when run from unfiltered sources. */
    public static String version() {
        try (InputStream in = WeftVersion.class.getResourceAsStream("/org/weft/launcher/version.properties")) {
            if (in != null) {
                Properties properties = new Properties();
                properties.load(in);
                String version = properties.getProperty("version", "unknown");
                return version.startsWith("${") ? "unknown" : version;
            }
        } catch (IOException e) {
            // fall through
        }
        return "unknown";
    }

    @Override
    public String[] getVersion() {
        return new String[] {"Weft " + version(), jdk()};
    }

    /** The JDK this JVM runs on: version, vendor and home, so that a user sees which of several JDKs was found. */
    public static String jdk() {
        return "JDK " + Runtime.version() + " (" + System.getProperty("java.vendor") + ") at "
                + System.getProperty("java.home");
    }
}
