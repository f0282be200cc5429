package org.weft.launcher.plan;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns {@code --site NAME:NP[:HOST,...]} and {@code --site-launcher NAME=auto|mpirun|weft|PATH} into the job's
 * {@link Site}s: global ranks contiguous per site in the order given; a site goes to its native {@code mpirun}
 * when asked to, or by default when {@code mpirun} is on the PATH, or to the {@code mpirun} (or {@code mpiexec})
 * at PATH — so one job may run a site under Open MPI and another under MPICH. Every mistake is an
 * {@link IllegalArgumentException} whose message the command line shows as a usage error.
 */
public final class SiteLayout {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]+");

    private SiteLayout() {
    }

    /**
     * The sites of the job, in the order given.
     *
     * @param siteOptions the values of {@code --site}
     * @param launcherOptions the values of {@code --site-launcher}
     * @param mpirun the {@code mpirun} on the PATH, or {@code null} when there is none
     */
    public static List<Site> parse(List<String> siteOptions, List<String> launcherOptions, Path mpirun) {
        Map<String, Path> chosenMpiruns = new LinkedHashMap<>();
        Map<String, SiteLauncher> launchers = launchers(launcherOptions, chosenMpiruns);
        List<Site> sites = new ArrayList<>();
        Set<String> names = new HashSet<>();
        int next = 0;
        for (String option : siteOptions) {
            String[] fields = option.split(":", -1);
            if (fields.length < 2 || fields.length > 3) {
                throw new IllegalArgumentException("--site " + option + ": expected NAME:NP or NAME:NP:HOST[,HOST...]");
            }
            String name = checkedName(fields[0], "--site " + option);
            if (!names.add(name)) {
                throw new IllegalArgumentException("--site " + option + ": site " + name + " is given twice");
            }
            int np = positive(fields[1], "--site " + option, "NP");
            List<String> hosts = fields.length == 3 ? hosts(fields[2], option) : List.of();
            Path launcher = mpirunFor(name, launchers.getOrDefault(name, SiteLauncher.AUTO),
                    chosenMpiruns.getOrDefault(name, mpirun));
            sites.add(new Site(name, next, np, hosts, launcher));
            next += np;
        }
        for (String name : launchers.keySet()) {
            if (!names.contains(name)) {
                throw new IllegalArgumentException("--site-launcher " + name + ": there is no --site " + name);
            }
        }
        return sites;
    }

    /** The launcher of each site named in {@code options}; an mpirun given by path goes to {@code mpiruns}. */
    private static Map<String, SiteLauncher> launchers(List<String> options, Map<String, Path> mpiruns) {
        Map<String, SiteLauncher> launchers = new LinkedHashMap<>();
        for (String option : options) {
            int eq = option.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--site-launcher " + option
                        + ": expected NAME=auto|mpirun|weft|PATH");
            }
            String name = checkedName(option.substring(0, eq), "--site-launcher " + option);
            String value = option.substring(eq + 1);
            if (value.contains("/")) {
                Path path = Path.of(value);
                if (!Files.isExecutable(path)) {
                    throw new IllegalArgumentException("--site-launcher " + option + ": " + value
                            + " is not an executable mpirun");
                }
                launchers.put(name, SiteLauncher.MPIRUN);
                mpiruns.put(name, path);
                continue;
            }
            try {
                launchers.put(name, SiteLauncher.parse(value));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--site-launcher " + option + ": " + e.getMessage());
            }
        }
        return launchers;
    }

    private static String checkedName(String name, String where) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(where + ": a site name is letters, digits, '_', '.' or '-', not '"
                    + name + "'");
        }
        return name;
    }

    /** {@code text} as a whole number of at least 1; else an error saying {@code where} and {@code what}. */
    static int positive(String text, String where, String what) {
        try {
            int value = Integer.parseInt(text);
            if (value >= 1) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(where + ": " + what + " must be a whole number of at least 1, not '"
                + text + "'");
    }

    /** The hosts of a site, one slot each (a host named twice has two slots). */
    private static List<String> hosts(String text, String option) {
        List<String> hosts = new ArrayList<>();
        for (String host : text.split(",", -1)) {
            if (host.isBlank()) {
                throw new IllegalArgumentException("--site " + option + ": an empty host name");
            }
            hosts.add(host);
        }
        return hosts;
    }

    private static Path mpirunFor(String site, SiteLauncher launcher, Path mpirun) {
        return switch (launcher) {
            case WEFT -> null;
            case AUTO -> mpirun;
            case MPIRUN -> {
                if (mpirun == null) {
                    throw new IllegalArgumentException("--site-launcher " + site
                            + "=mpirun: there is no mpirun on the PATH");
                }
                yield mpirun;
            }
        };
    }

    /** The first executable {@code mpirun} in {@code path} (a PATH value, may be null), or {@code null}. */
    public static Path findMpirun(String path) {
        if (path == null) {
            return null;
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty()) {
                Path candidate = Path.of(dir, "mpirun");
                if (java.nio.file.Files.isExecutable(candidate)) {
                    return candidate;
                }
            }
        }
        return null;
    }
}
