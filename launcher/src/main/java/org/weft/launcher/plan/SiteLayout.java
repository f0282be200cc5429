package org.weft.launcher.plan;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns {@code --site NAME:NP[:HOST,...]} and {@code --site-launcher NAME=auto|mpirun|weft} into the job's
 * {@link Site}s: global ranks contiguous per site in the order given; a site goes to its native {@code mpirun}
 * when asked to, or by default when {@code mpirun} is on the PATH. Every mistake is an
 * {@link IllegalArgumentException} whose message the command line shows as a usage error.
 */
public final class SiteLayout {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]+");
    /** Names every host answers to for itself. */
    private static final Set<String> LOOPBACK = Set.of("localhost", "127.0.0.1", "::1");

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
        Map<String, SiteLauncher> launchers = launchers(launcherOptions);
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
            Path launcher = mpirunFor(name, launchers.getOrDefault(name, SiteLauncher.AUTO), mpirun);
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

    private static Map<String, SiteLauncher> launchers(List<String> options) {
        Map<String, SiteLauncher> launchers = new LinkedHashMap<>();
        for (String option : options) {
            int eq = option.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--site-launcher " + option + ": expected NAME=auto|mpirun|weft");
            }
            String name = checkedName(option.substring(0, eq), "--site-launcher " + option);
            try {
                launchers.put(name, SiteLauncher.parse(option.substring(eq + 1)));
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
    private static int positive(String text, String where, String what) {
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

    /** Today every rank runs on this host: other hosts need a remote agent (ssh), which weftrun does not have yet. */
    private static List<String> hosts(String text, String option) {
        List<String> hosts = new ArrayList<>();
        for (String host : text.split(",", -1)) {
            if (host.isBlank()) {
                throw new IllegalArgumentException("--site " + option + ": an empty host name");
            }
            if (!isThisHost(host)) {
                throw new IllegalArgumentException("--site " + option + ": host " + host
                        + " is not this host; weftrun starts ranks on this host only (no remote agent yet)");
            }
            hosts.add(host);
        }
        return hosts;
    }

    private static boolean isThisHost(String host) {
        if (LOOPBACK.contains(host)) {
            return true;
        }
        try {
            InetAddress local = InetAddress.getLocalHost();
            return host.equals(local.getHostName()) || host.equals(local.getCanonicalHostName())
                    || host.equals(local.getHostAddress());
        } catch (UnknownHostException e) {
            return false;
        }
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

    /**
     * The {@code --site} values a hostfile with site labels stands for: lines {@code HOST slots=N site=NAME}
     * ({@code #} starts a comment; slots default to 1), the sites in order of first appearance, each with the sum
     * of its lines' slots and its hosts. A line without {@code site=} is an error: weftrun reads hostfiles for sites
     * only, as it starts ranks on this host only.
     */
    public static List<String> fromHostfile(List<String> lines) {
        Map<String, Integer> slots = new LinkedHashMap<>();
        Map<String, List<String>> hosts = new LinkedHashMap<>();
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n).replaceFirst("#.*", "").trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] words = line.split("\\s+");
            String site = null;
            int count = 1;
            for (int w = 1; w < words.length; w++) {
                if (words[w].startsWith("site=")) {
                    site = words[w].substring(5);
                } else if (words[w].startsWith("slots=")) {
                    count = positive(words[w].substring(6), "hostfile line " + (n + 1), "slots");
                }
            }
            if (site == null) {
                throw new IllegalArgumentException("hostfile line " + (n + 1) + ": no site=NAME (weftrun reads "
                        + "hostfiles for site labels only)");
            }
            slots.merge(site, count, Integer::sum);
            hosts.computeIfAbsent(site, k -> new ArrayList<>()).add(words[0]);
        }
        List<String> sites = new ArrayList<>();
        slots.forEach((site, count) -> sites.add(site + ":" + count + ":" + String.join(",", hosts.get(site))));
        return sites;
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
