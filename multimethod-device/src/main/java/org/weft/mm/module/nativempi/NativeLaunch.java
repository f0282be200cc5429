package org.weft.mm.module.nativempi;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What the native launcher ({@code mpirun}, {@code mpiexec}, {@code srun}) told this process through its
 * environment: whether there was one, and whose it was — which says which libmpi to load, since a library only
 * joins the job its own launcher started (Open MPI under MPICH's Hydra initialises as a world of one).
 *
 * <ul>
 *   <li>Open MPI's {@code mpirun}: {@code OMPI_COMM_WORLD_SIZE} (and PMIx's variables).</li>
 *   <li>MPICH's Hydra ({@code mpiexec.hydra}, and its relatives': Intel MPI, MVAPICH): PMI-1/2's {@code PMI_SIZE},
 *       {@code PMI_RANK}, {@code PMI_FD} — and nothing that names the job: the native job's id is agreed on after
 *       {@code MPI_Init} instead ({@link NativeMpiModule}).</li>
 *   <li>PMIx launchers of either ({@code srun --mpi=pmix}, {@code prterun}): {@code PMIX_RANK}.</li>
 * </ul>
 */
record NativeLaunch(Launcher launcher) {
    /** Whose launcher it was, as far as the environment tells: the first whose marker variable is set. */
    enum Launcher {
        OPEN_MPI("OMPI_COMM_WORLD_SIZE", "Open MPI's mpirun", List.of("libmpi.so.40", "libmpi.so")),
        /** PMI-1/2 without Open MPI's variables: MPICH's Hydra or a relative. */
        MPICH("PMI_SIZE", "an MPICH launcher (PMI)", List.of("libmpich.so.12", "libmpi.so.12", "libmpi.so")),
        /** PMIx only: either implementation may be meant. */
        PMIX("PMIX_RANK", "a PMIx launcher", List.of("libmpi.so.40", "libmpich.so.12", "libmpi.so.12", "libmpi.so"));

        private final String marker;
        private final String description;
        /** The sonames tried, in order, when {@code nativempi_library} does not name one. */
        private final List<String> libraries;

        Launcher(String marker, String description, List<String> libraries) {
            this.marker = marker;
            this.description = description;
            this.libraries = libraries;
        }
    }

    /** Variables any of which shows that a native launcher started this process. */
    static final List<String> MARKERS = Stream.of(Launcher.values()).map(l -> l.marker).toList();

    /** The launch this environment describes, or {@code null} when no native launcher started the process. */
    static NativeLaunch of(Map<String, String> environment) {
        for (Launcher launcher : Launcher.values()) {
            if (environment.containsKey(launcher.marker)) {
                return new NativeLaunch(launcher);
            }
        }
        return null;
    }

    /** Whose launcher it was, for messages: {@code Open MPI's mpirun}. */
    String description() {
        return launcher.description;
    }

    /** The libraries to try, in order, for this launcher. */
    List<String> defaultLibraries() {
        return launcher.libraries;
    }

    /**
     * Why {@code flavour}'s library cannot join this launch (its {@code MPI_Init} would start a world of one), or
     * {@code null} when it can.
     */
    String mismatch(MpiFlavour flavour, String library) {
        boolean openMpi = flavour instanceof OpenMpiFlavour;
        if (launcher == Launcher.PMIX || openMpi == (launcher == Launcher.OPEN_MPI)) {
            return null;
        }
        return library + " is " + flavour.name() + ", but " + launcher.description + " started this process";
    }
}
