package org.weft.mm.module.nativempi;

import java.util.List;
import java.util.Map;

/**
 * What the native launcher ({@code mpirun}, {@code mpiexec}, {@code srun}) told this process through its
 * environment: whether there was one, and the id of the native job (session) it started, the same in every process
 * of that job and different for any other job, also one started on another host.
 *
 * <ul>
 *   <li>Open MPI 4 (PMIx): {@code PMIX_NAMESPACE} (a number derived from the launcher's job id) plus the address of
 *       {@code mpirun} (the HNP) from {@code OMPI_MCA_orte_hnp_uri}, so that two mpiruns on two hosts never share
 *       an id.</li>
 *   <li>MPICH (Hydra, PMI-1/2): {@code PMI_KVSNAME}, which holds the launcher's pid and a random part; with PMIx
 *       launchers, {@code PMIX_NAMESPACE}.</li>
 * </ul>
 */
record NativeLaunch(String sessionId) {
    /** Variables any of which shows that a native launcher started this process. */
    static final List<String> MARKERS = List.of("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK");

    /** The launch this environment describes, or {@code null} when no native launcher started the process. */
    static NativeLaunch of(Map<String, String> environment) {
        if (MARKERS.stream().noneMatch(environment::containsKey)) {
            return null;
        }
        String namespace = first(environment, "PMIX_NAMESPACE", "PMI_KVSNAME");
        if (namespace == null) {
            return null;
        }
        String hnp = environment.get("OMPI_MCA_orte_hnp_uri");
        return new NativeLaunch(hnp == null ? namespace : namespace + "@" + launcherAddress(hnp));
    }

    /** {@code "931463168.0;tcp://192.0.2.2:45391;..."}: the first address after the job id. */
    private static String launcherAddress(String hnpUri) {
        int start = hnpUri.indexOf(';');
        if (start < 0) {
            return hnpUri;
        }
        int end = hnpUri.indexOf(';', start + 1);
        return hnpUri.substring(start + 1, end < 0 ? hnpUri.length() : end);
    }

    private static String first(Map<String, String> environment, String... names) {
        for (String name : names) {
            String value = environment.get(name);
            if (value != null && !value.isBlank()) {
                return value;
            }
        }
        return null;
    }
}
