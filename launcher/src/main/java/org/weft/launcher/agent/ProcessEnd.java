package org.weft.launcher.agent;

import java.util.List;

/**
 * How a process of the job ended: it exited with a code, or a signal killed it; or, where the system does not
 * say (see {@link PidfdExit}), only Java's status is known, which is 128 + N both for signal N and for exit code
 * 128 + N. {@link #status()} is what {@code weftrun} exits with for it, as {@code mpirun} does: the code, or
 * 128 + the signal.
 */
public record ProcessEnd(Kind kind, int status) {
    /** What is known of the end. */
    public enum Kind { EXITED, KILLED, UNTOLD }

    /** Linux's signal names, by number (x86-64 and AArch64 share them). */
    private static final List<String> SIGNALS = List.of("", "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP",
            "SIGABRT", "SIGBUS", "SIGFPE", "SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM",
            "SIGTERM", "SIGSTKFLT", "SIGCHLD", "SIGCONT", "SIGSTOP", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG",
            "SIGXCPU", "SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGWINCH", "SIGIO", "SIGPWR", "SIGSYS");
    private static final int SIGNALLED = 128;
    /** Linux's highest signal number (the last real-time signal). */
    private static final int MAX_SIGNAL = 64;

    /**
     * The end of a process whose Java status is {@code javaStatus}, and whose wait status ({@code waitpid}'s) is
     * {@code waitStatus}, or -1 when unknown.
     */
    static ProcessEnd of(int javaStatus, int waitStatus) {
        if (waitStatus >= 0) {
            int signal = waitStatus & 0x7f;
            return signal == 0 ? new ProcessEnd(Kind.EXITED, (waitStatus >> 8) & 0xff)
                    : new ProcessEnd(Kind.KILLED, SIGNALLED + signal);
        }
        boolean couldBeSignal = javaStatus > SIGNALLED && javaStatus <= SIGNALLED + MAX_SIGNAL;
        return new ProcessEnd(couldBeSignal ? Kind.UNTOLD : Kind.EXITED, javaStatus);
    }

    /** An exit with {@code code}. */
    public static ProcessEnd exited(int code) {
        return new ProcessEnd(Kind.EXITED, code);
    }

    /**
     * {@code exited with code 3}, {@code was killed by signal 9 (SIGKILL)}, or, untold, {@code ended with status 137
     * (killed by signal 9 (SIGKILL), or exit code 137: this system does not say which)}. For a JVM, an exit code of
     * 128 + SIGHUP, SIGINT or SIGTERM is what it exits with after that signal, and the text says so.
     */
    public String describe(boolean jvm) {
        return switch (kind) {
            case EXITED -> "exited with code " + status
                    + (jvm && isJvmSignalExit(status) ? ", as a JVM does after " + name(status - SIGNALLED) : "");
            case KILLED -> "was killed by " + signal(status - SIGNALLED);
            case UNTOLD -> "ended with status " + status + " (killed by " + signal(status - SIGNALLED)
                    + ", or exit code " + status + ": this system does not say which)";
        };
    }

    private static boolean isJvmSignalExit(int code) {
        int signal = code - SIGNALLED;
        return signal == 1 || signal == 2 || signal == 15; // the signals a JVM ends on through its shutdown hooks
    }

    private static String signal(int number) {
        return "signal " + number + (number < SIGNALS.size() ? " (" + name(number) + ")" : "");
    }

    private static String name(int number) {
        return number > 0 && number < SIGNALS.size() ? SIGNALS.get(number) : "signal " + number;
    }
}
