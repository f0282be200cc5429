package org.weft.launcher.plan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A hostfile as {@code mpirun} reads it: lines {@code HOST [slots=N] [site=NAME]}, {@code #} starting a comment,
 * slots defaulting to 1. Either every line names a site (the file then stands for {@code --site} options) or none
 * does (the file then gives the job's slots, as {@code --host}). A line {@code HOST gateway=SITE} runs no ranks: it
 * places the relay of site {@code SITE} on {@code HOST} (as {@code --relay SITE=HOST}).
 */
public final class Hostfile {
    private record Line(String host, int slots, String site) {
        /** The line's host once per slot. */
        List<String> slotHosts() {
            return Collections.nCopies(slots, host);
        }
    }

    private final List<Line> lines;
    private final List<RelayPlacement> gateways;

    private Hostfile(List<Line> lines, List<RelayPlacement> gateways) {
        this.lines = lines;
        this.gateways = List.copyOf(gateways);
    }

    /** The relays the file places ({@code HOST gateway=SITE} lines), in file order. */
    public List<RelayPlacement> gateways() {
        return gateways;
    }

    /** Reads the lines of a hostfile; a mistake is an {@link IllegalArgumentException} naming its line. */
    public static Hostfile parse(List<String> text) {
        List<Line> lines = new ArrayList<>();
        List<RelayPlacement> gateways = new ArrayList<>();
        Boolean withSites = null;
        for (int n = 0; n < text.size(); n++) {
            String line = text.get(n).replaceFirst("#.*", "").trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] words = line.split("\\s+");
            if (words.length == 2 && words[1].startsWith("gateway=")) {
                gateways.add(new RelayPlacement(words[1].substring("gateway=".length()), words[0]));
                continue;
            }
            String site = null;
            int slots = 1;
            for (int w = 1; w < words.length; w++) {
                if (words[w].startsWith("site=")) {
                    site = words[w].substring(5);
                } else if (words[w].startsWith("slots=")) {
                    slots = SiteLayout.positive(words[w].substring(6), "hostfile line " + (n + 1), "slots");
                }
            }
            if (withSites != null && withSites != (site != null)) {
                throw new IllegalArgumentException("hostfile line " + (n + 1) + ": either every line names its"
                        + " site (site=NAME) or none does");
            }
            withSites = site != null;
            lines.add(new Line(words[0], slots, site));
        }
        return new Hostfile(lines, gateways);
    }

    /** Whether the lines name sites. */
    public boolean hasSites() {
        return !lines.isEmpty() && lines.getFirst().site() != null;
    }

    /**
     * The {@code --site NAME:NP:HOSTS} values the file stands for: the sites in order of first appearance, each
     * with the sum of its lines' slots and its hosts, a host once per slot.
     */
    public List<String> siteOptions() {
        Map<String, Integer> slots = new LinkedHashMap<>();
        Map<String, List<String>> hosts = new LinkedHashMap<>();
        for (Line line : lines) {
            if (line.site() != null) {
                slots.merge(line.site(), line.slots(), Integer::sum);
                hosts.computeIfAbsent(line.site(), k -> new ArrayList<>()).addAll(line.slotHosts());
            }
        }
        List<String> sites = new ArrayList<>();
        slots.forEach((site, count) -> sites.add(site + ":" + count + ":" + String.join(",", hosts.get(site))));
        return sites;
    }

    /** The job's slots when the lines name no site: each host once per slot, in file order. */
    public List<String> slots() {
        List<String> slots = new ArrayList<>();
        for (Line line : lines) {
            slots.addAll(line.slotHosts());
        }
        return slots;
    }
}
