package mpi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.weft.adi.DeviceException;
import org.weft.adi.ErrorClass;
import org.weft.adi.bootstrap.LauncherRequests.Command;

/** The root's arguments of {@code MPI_Comm_spawn_multiple} checked and turned into the launcher's commands. */
final class SpawnArguments {
    private SpawnArguments() {
    }

    /** One command per main class; {@code ERR_ARG} for arrays that do not match or counts below 1. */
    static List<Command> commands(String[] commands, String[][] argv, int[] maxprocs, Info[] info) {
        if (commands == null || maxprocs == null || commands.length == 0 || maxprocs.length < commands.length
                || (argv != null && argv.length < commands.length)
                || (info != null && info.length < commands.length)) {
            throw new DeviceException(ErrorClass.ERR_ARG, "spawn: one command, argument list, count and info for"
                    + " each of the " + (commands == null ? 0 : commands.length) + " commands");
        }
        List<Command> list = new ArrayList<>();
        for (int i = 0; i < commands.length; i++) {
            if (commands[i] == null || commands[i].isBlank()) {
                throw new DeviceException(ErrorClass.ERR_SPAWN, "spawn: command " + i + " names no main class");
            }
            if (maxprocs[i] < 1) {
                throw new DeviceException(ErrorClass.ERR_ARG, "spawn: " + maxprocs[i] + " processes of "
                        + commands[i]);
            }
            String[] args = argv == null || argv[i] == null ? new String[0] : argv[i];
            Info hints = info == null || info[i] == null || info[i].isNull() ? null : info[i];
            list.add(new Command(commands[i], Arrays.asList(args), maxprocs[i], entries(hints)));
        }
        return list;
    }

    private static java.util.Map<String, String> entries(Info hints) {
        try {
            return hints == null ? java.util.Map.of() : hints.entries();
        } catch (MPIException e) {
            throw new DeviceException(ErrorClass.ERR_INFO, e.getMessage());
        }
    }
}
