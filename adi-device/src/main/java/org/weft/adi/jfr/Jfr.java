package org.weft.adi.jfr;

import org.weft.adi.param.Parameter;

/**
 * Whether Weft emits its Flight Recorder events ({@link #ON}), and the parameters that say so. Every call site reads
 * {@code ON} first ({@code if (Jfr.ON) WeftEvents.sent(...)}): a static final false that the JIT folds, so with the
 * events off the hot paths run the code they ran before and allocate nothing. This class names no JFR type: off, the
 * event classes, {@link WeftEvents} and JFR's own classes are never loaded (a call site's class that passed an event
 * where a supertype is expected would have the verifier load both; so {@link WeftEvents} takes each by its own type).
 *
 * <p>Read from the environment only ({@code WEFT_JFR=1}, which {@code weftrun --jfr} and {@code --param jfr=1} set):
 * the flag must be known when this class initialises, before any parameter file is read.
 */
public final class Jfr {
    public static final Parameter<Integer> JFR = Parameter.integer("jfr", 0, "flag",
            "1 = emit Weft's JDK Flight Recorder events (messages, collectives, rendezvous, back-pressure waits);"
                    + " weftrun --jfr sets it and records each rank");

    public static final Parameter<String> JFR_DIR = Parameter.string("jfr_dir", "",
            "directory where each rank writes its Flight Recorder recording, rank-N.jfr (set by weftrun --jfr)");

    /** True when the events are emitted. */
    public static final boolean ON = "1".equals(System.getenv(JFR.environmentName()));

    /** This process's rank in its world, as weftrun set it ({@code WEFT_RANK}), or -1. */
    static final int RANK = rank(System.getenv("WEFT_RANK"));

    private Jfr() {
    }

    private static int rank(String text) {
        try {
            return text == null ? -1 : Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
