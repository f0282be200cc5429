package org.weft.launcher.job;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The shared-memory segments of Open MPI 4.1's vader transport, {@code vader_segment.HOST.UID.JOBID.RANK} with the
 * job id in hex, one per local rank. The ranks unlink them when they end; ranks killed with their mpirun leave them.
 * A job's id carries its mpirun's job family in the upper 16 bits, and the mpirun's session directory names that
 * family in its {@code contact.txt} ({@code FAMILY<<16.0;URI}, then the pid), so the segments of a dead mpirun's
 * jobs are found from its session directory, before that is removed.
 */
final class VaderSegments {
    private static final Pattern SEGMENT = Pattern.compile("vader_segment\\..+\\.(\\d+)\\.([0-9a-f]{1,8})\\.\\d+");
    private static final Pattern CONTACT = Pattern.compile("(\\d+)\\.0;.*", Pattern.DOTALL);

    private VaderSegments() {
    }

    /**
     * Removes the segments in {@code shm} of this user's jobs of the mpirun whose session directory is
     * {@code session}; returns what it removed (nothing when the directory names no job family).
     */
    static List<Path> removeOfSession(Path session, Path shm) {
        OptionalInt family = family(session);
        if (family.isEmpty()) {
            return List.of();
        }
        long uid = OpenMpiSessionDirectory.ownerOf(Path.of("/proc/self")); // -1, unknown: matches no segment
        try (Stream<Path> entries = Files.list(shm)) {
            List<Path> segments = entries.filter(segment -> isOfFamily(segment, family.getAsInt(), uid)).toList();
            for (Path segment : segments) {
                Files.deleteIfExists(segment);
            }
            return segments;
        } catch (IOException e) {
            return List.of(); // no backing directory, or not ours: nothing to clean
        }
    }

    /** The job family the session's mpirun ran its jobs under, if its contact file says. */
    static OptionalInt family(Path session) {
        try {
            Matcher contact = CONTACT.matcher(Files.readString(session.resolve("contact.txt")));
            return contact.matches() ? OptionalInt.of((int) (Long.parseLong(contact.group(1)) >>> 16))
                    : OptionalInt.empty();
        } catch (IOException | RuntimeException e) {
            return OptionalInt.empty(); // an mpirun killed before it wrote its contact file made no job
        }
    }

    private static boolean isOfFamily(Path segment, int family, long uid) {
        Matcher name = SEGMENT.matcher(segment.getFileName().toString());
        return name.matches() && Long.parseLong(name.group(1)) == uid
                && Long.parseLong(name.group(2), 16) >>> 16 == family;
    }
}
