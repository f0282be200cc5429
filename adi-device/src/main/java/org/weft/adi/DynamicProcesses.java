package org.weft.adi;

import org.weft.adi.bootstrap.LauncherRequests.SpawnSpec;

/**
 * How a device's world grows (MPI's dynamic processes), below the communicators the core layer builds on it.
 *
 * <p>Processes are addressed by <em>job rank</em>: the ranks weftrun started are 0..n-1 (the first world), and
 * each spawn adds a world of new ranks after all the others; a process's own world (its {@code COMM_WORLD}) is job
 * ranks {@link #worldFirstRank()} .. + {@link Device#size()}. A process reaches a rank outside its world only
 * after {@link #reach} has fetched that rank's business card from the launcher.
 */
public interface DynamicProcesses {
    /** The job rank of this process's world's first process (0 but in a spawned world). */
    int worldFirstRank();

    /** The job rank of the root that spawned this world, or -1 when nobody did. */
    int parent();

    /** The job's id, which port names carry. */
    String jobId();

    /**
     * Makes this process reachable from other worlds: starts the methods that reach other hosts if they did not
     * start (tcp in a job on one host) and gives the launcher its new business card. Call before another world
     * may look this process up (every member of a spawning or connecting group).
     */
    void prepare();

    /** Makes the job ranks {@code ranks} reachable (a startpoint each), fetching their cards where needed. */
    void reach(int[] ranks);

    /** Asks the launcher for the processes of {@code spec}; returns their job ranks once they all met. */
    int[] spawn(SpawnSpec spec);

    /** {@code MPI_Publish_name} through the launcher: {@code ERR_SERVICE} when the name is taken. */
    void publishName(String service, String port);

    /** {@code MPI_Lookup_name}: {@code ERR_NAME} when nothing is published under it. */
    String lookupName(String service);

    /** {@code MPI_Unpublish_name}: {@code ERR_SERVICE} when it is not published so. */
    void unpublishName(String service, String port);

    /** The business cards of these job ranks of this job (what another job needs to reach them). */
    byte[][] cards(int[] ranks);

    /**
     * Reserves {@code count} job ranks that no process of this job will take: the names by which this job's
     * processes will know the processes of another job. Returns the first.
     */
    int reserve(int count);

    /**
     * Makes the processes of another job reachable under job ranks of this one ({@link #reserve}d by the group's
     * root): the group met through a port, and from now on its processes are peers like any.
     */
    void adopt(ForeignGroup group);

    /**
     * A group of another job, as this process knows it: its processes' job ranks there ({@code ranksThere}, with
     * their {@code cards}) are job ranks {@code firstAlias ..} here; this process is job rank {@code myRankThere}
     * there; connections between the two prove {@code linkKey} (derived from the port's token: the jobs' secrets
     * differ) instead of the job's secret, and name the job {@code jobId} they are made to.
     */
    record ForeignGroup(String jobId, String linkKey, int firstAlias, int[] ranksThere, int myRankThere,
                        byte[][] cards) {
        public ForeignGroup {
            if (cards.length != ranksThere.length) {
                throw new IllegalArgumentException(cards.length + " cards for " + ranksThere.length + " processes");
            }
        }
    }

    /** A device that cannot grow: its world is all there is. */
    static DynamicProcesses none(String jobId) {
        return new DynamicProcesses() {
            @Override
            public int worldFirstRank() {
                return 0;
            }

            @Override
            public int parent() {
                return -1;
            }

            @Override
            public String jobId() {
                return jobId;
            }

            @Override
            public void prepare() {
            }

            @Override
            public void reach(int[] ranks) {
            }

            @Override
            public byte[][] cards(int[] ranks) {
                throw new DeviceException(ErrorClass.ERR_PORT, "this device cannot meet other jobs");
            }

            @Override
            public int reserve(int count) {
                throw new DeviceException(ErrorClass.ERR_PORT, "this device cannot meet other jobs");
            }

            @Override
            public void adopt(ForeignGroup group) {
                throw new DeviceException(ErrorClass.ERR_PORT, "this device cannot meet other jobs");
            }

            @Override
            public int[] spawn(SpawnSpec spec) {
                throw new DeviceException(ErrorClass.ERR_SPAWN, "this device cannot start processes");
            }

            @Override
            public void publishName(String service, String port) {
                throw new DeviceException(ErrorClass.ERR_SERVICE, "this device has no name service");
            }

            @Override
            public String lookupName(String service) {
                throw new DeviceException(ErrorClass.ERR_NAME, "this device has no name service");
            }

            @Override
            public void unpublishName(String service, String port) {
                throw new DeviceException(ErrorClass.ERR_SERVICE, "this device has no name service");
            }
        };
    }
}
