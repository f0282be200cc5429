package org.weft.adi;

import java.util.ArrayList;
import java.util.List;

/**
 * How this process was started, as MPI shows it: {@code MPI.APPNUM} (the index of its app context, or of its
 * command in a spawn), {@code MPI.UNIVERSE_SIZE} (how many processes the job's hosts and slots take) and the
 * entries of {@code MPI.INFO_ENV} that the device knows (the command and its arguments, how many processes it was
 * started with, the working directory).
 *
 * @param appNum the app context's index, or {@code -1} when there is none (a singleton)
 * @param universeSize how many processes the job's slots take, at least the world's size
 * @param command the program: its main class
 * @param argv the program's arguments
 * @param maxprocs how many processes the launcher started with this command (its app context's {@code -np})
 * @param wdir the working directory
 */
public record ProcessStart(int appNum, int universeSize, String command, List<String> argv, int maxprocs,
                           String wdir) {
    public ProcessStart {
        argv = List.copyOf(argv);
    }

    /**
     * The start of a process of a world of {@code size} as the JVM tells it: its main class and arguments from the
     * java launcher's {@code sun.java.command} (words split at blanks, as it does not keep them apart), no app
     * context when {@code appNum} is negative.
     */
    public static ProcessStart ofThisJvm(int appNum, int universeSize, int maxprocs, int size) {
        String javaCommand = System.getProperty("sun.java.command", "").strip();
        List<String> words = new ArrayList<>();
        for (String word : javaCommand.split(" ")) { // one blank: no regular expression, ~2 ms of a rank's start-up
            if (!word.isEmpty()) {
                words.add(word);
            }
        }
        return new ProcessStart(appNum, Math.max(universeSize, size), words.isEmpty() ? "" : words.getFirst(),
                words.isEmpty() ? List.of() : words.subList(1, words.size()), maxprocs > 0 ? maxprocs : size,
                System.getProperty("user.dir", ""));
    }
}
