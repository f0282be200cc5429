package org.weft.launcher.plan;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.weft.adi.param.Parameter;
import org.weft.adi.param.Parameters;

/**
 * The JDK's ahead-of-time cache of the rank JVMs (JEP 483, 514, 515: classes loaded and linked, method profiles),
 * trained by {@code bin/weft-aot-train} on Weft's own jars and kept in {@link #AOT_DIR} beside the launcher's
 * ({@code launcher.aot}, which {@code bin/weftrun} uses). A rank uses {@value #RANK_CACHE} when it is there; the
 * JDK takes a cache only for a class path that starts with the one it was trained on, so Weft's jars come first on
 * a rank's class path ({@link RankCommands}).
 *
 * <p>The JDK does not notice that a jar changed under its cache (25.0.3 served the old classes of a rebuilt jar), so
 * the directory's name is a fingerprint of the JDK and of every jar (path, size, modification and change times), made
 * by {@code bin/weft-env.sh}: other jars, another directory, no cache until it is trained. The JDK's own complaints
 * about a cache it cannot use (other JVM options) are silenced: a cache only ever makes a rank start faster.
 *
 * <p>A rank maps the cache at the address it was written for ({@code ArchiveRelocationMode=0}; elsewhere only if
 * that address is taken) rather than at a random one, which JDK 20 made the default: relocating every pointer of a
 * 27 MB cache cost each rank ~11 ms of CPU (docs/performance.md, "2026-11-26, fifth"). The cache's address is then
 * predictable, as the JDK's own class data archive's was before JDK 20; the heap, stacks and code stay randomised.
 */
public record AotCache(Path directory, boolean training) {
    public static final Parameter<String> AOT_DIR = Parameter.string("aot_dir", "",
            "launcher only: the directory of the AOT caches of these jars (set by bin/weftrun; empty = none)");
    public static final Parameter<Integer> AOT_TRAIN = Parameter.integer("aot_train", 0, "flag",
            "launcher only: 1 = rank 0 trains the ranks' AOT cache into aot_dir (bin/weft-aot-train sets it)");
    /** The launcher's parameters of the cache, for {@code weftrun --info}. */
    public static final List<Parameter<?>> PARAMETERS = List.of(AOT_DIR, AOT_TRAIN);
    /** The ranks' cache in {@link #directory}. */
    public static final String RANK_CACHE = "rank.aot";
    /** No cache. */
    public static final AotCache NONE = new AotCache(null, false);

    /** The cache the launcher's environment names ({@code WEFT_AOT_DIR}, {@code WEFT_AOT_TRAIN}). */
    public static AotCache of(Map<String, String> environment) {
        Parameters parameters = new Parameters(Map.of(), environment);
        String directory = parameters.get(AOT_DIR);
        return directory.isBlank() ? NONE : new AotCache(Path.of(directory), parameters.get(AOT_TRAIN) == 1);
    }

    /**
     * The JVM options for {@code rank} ({@code -1}: every rank of an mpirun, one command): training, rank 0 writes
     * the cache; else every rank reads it, if it is there.
     */
    public List<String> jvmOptions(int rank) {
        if (directory == null) {
            return List.of();
        }
        Path cache = directory.resolve(RANK_CACHE);
        if (training) {
            return rank == 0 ? List.of("-XX:AOTCacheOutput=" + cache) : List.of();
        }
        return Files.isRegularFile(cache) ? List.of("-XX:AOTCache=" + cache, "-Xlog:aot=off",
                "-XX:+UnlockDiagnosticVMOptions", "-XX:ArchiveRelocationMode=0") : List.of();
    }
}
