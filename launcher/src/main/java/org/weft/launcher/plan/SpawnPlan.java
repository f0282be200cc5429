package org.weft.launcher.plan;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.weft.adi.WorldConfig;
import org.weft.adi.bootstrap.LauncherRequests.Command;
import org.weft.adi.bootstrap.LauncherRequests.SpawnSpec;
import org.weft.mm.DeviceParameters;

/**
 * The processes of one {@code MPI_Comm_spawn} (or {@code spawnMultiple}): a world of their own, job ranks
 * {@code firstRank ..}, each command an app context (its APPNUM its index). A command runs with the spawning
 * root's class path and JVM options, in its site, on the job's hosts in turn from the root's, unless its info says
 * otherwise:
 * {@code host} (a host of the job, or any the remote shell reaches), {@code classpath} (Weft's key; entries
 * separated by {@code :}), {@code jvm_args} (Weft's key; blank-separated), {@code env} (Open MPI's key: lines
 * {@code NAME=VALUE}). The processes get the job's variables and secret, and learn the parents' leader.
 */
public final class SpawnPlan {
    /** Given to a spawned process: the job rank of its world's first rank. */
    public static final String ENV_WORLD_FIRST_RANK = DeviceParameters.WORLD_FIRST_RANK.environmentName();
    /** Given to a spawned process: the job rank of the parents' root, the leader its world connects to. */
    public static final String ENV_PARENT = DeviceParameters.PARENT.environmentName();

    private SpawnPlan() {
    }

    /** Where the spawning root runs: its app context (its class path is the default), host and site. */
    public record Root(AppContext app, String host, String site) {
    }

    /**
     * The launches of {@code spec}'s processes: on the host its info names, else round the job's hosts from the
     * root's (a job on this host alone: here), in the root's site.
     *
     * @param job the job's plan (its hosts, variables, JVM options and output tagging)
     */
    public static List<RankLaunch> launches(JobPlan job, Root root, RankCommands commands, JobIdentity identity,
                                            Path jobDir, SpawnSpec spec, int firstRank) {
        List<AppContext> apps = new ArrayList<>();
        List<String> hosts = new ArrayList<>();
        List<String> jobHosts = job.rankHosts().stream().distinct().toList();
        int next = Math.max(0, jobHosts.indexOf(root.host()));
        for (Command command : spec.commands()) {
            apps.add(appContext(command, root.app()));
            String named = command.info().get("host");
            for (int i = 0; i < command.maxprocs(); i++) {
                String host = named != null ? named : jobHosts.isEmpty() ? root.host()
                        : jobHosts.get(next++ % jobHosts.size());
                hosts.add(isThisHost(host) ? "" : host);
            }
        }
        JobPlan world = new JobPlan(apps, job.environment(), job.jvmArgs(), job.tagOutput(), null, List.of(), hosts);
        List<RankLaunch> launches = new ArrayList<>();
        for (int i = 0; i < world.np(); i++) {
            RankLaunch launch = commands.launch(world, identity, i, jobDir);
            Map<String, String> environment = new LinkedHashMap<>(launch.environment());
            environment.put(WorldConfig.ENV_RANK, Integer.toString(firstRank + i));
            environment.put(ENV_WORLD_FIRST_RANK, Integer.toString(firstRank));
            environment.put(ENV_PARENT, Integer.toString(spec.root()));
            if (!root.site().isEmpty()) {
                environment.put(DeviceParameters.SITE.environmentName(), root.site());
            }
            launches.add(new RankLaunch(firstRank + i, 1, root.site(), null, launch.host(), launch.command(),
                    environment));
        }
        return launches;
    }

    /** The app context of {@code command}: its info over the spawning root's {@code rootApp}. */
    public static AppContext appContext(Command command, AppContext rootApp) {
        String classPath = command.info().get("classpath");
        List<String> entries = classPath == null ? rootApp.classPath()
                : List.of(classPath.split(File.pathSeparator));
        String jvmArgs = command.info().get("jvm_args");
        List<String> jvm = jvmArgs == null ? rootApp.jvmArgs() : List.of(jvmArgs.trim().split("\\s+"));
        Map<String, String> environment = new LinkedHashMap<>(rootApp.environment());
        for (String line : command.info().getOrDefault("env", "").split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                environment.put(line.substring(0, eq).trim(), line.substring(eq + 1));
            }
        }
        return new AppContext(command.maxprocs(), entries, command.command(), command.argv(), jvm, environment);
    }

    private static boolean isThisHost(String host) {
        return host.isEmpty() || host.equals("localhost") || host.equals("127.0.0.1");
    }
}
