package org.weft.launcher.plan;

import java.util.Locale;

/**
 * Who starts a site's ranks: {@code auto} (native {@code mpirun} where there is one), {@code mpirun} (the one on the
 * PATH, or one given by path), {@code weft}.
 */
public enum SiteLauncher {
    AUTO, MPIRUN, WEFT;

    /** The launcher named {@code text} ({@code auto}, {@code mpirun}, {@code weft}); IllegalArgumentException else. */
    public static SiteLauncher parse(String text) {
        for (SiteLauncher launcher : values()) {
            if (launcher.name().toLowerCase(Locale.ROOT).equals(text)) {
                return launcher;
            }
        }
        throw new IllegalArgumentException("unknown site launcher '" + text
                + "' (expected auto, mpirun, weft or the path of an mpirun)");
    }
}
