package org.weft.mm.module;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;

/** Prints every thread's stack, so that a test that gives up waiting shows where things stood. */
public final class ThreadDumps {
    private ThreadDumps() {
    }

    public static String dump() {
        StringBuilder out = new StringBuilder("thread dump:\n");
        for (ThreadInfo info : ManagementFactory.getThreadMXBean().dumpAllThreads(false, false)) {
            out.append('"').append(info.getThreadName()).append("\" ").append(info.getThreadState()).append('\n');
            for (StackTraceElement frame : info.getStackTrace()) {
                out.append("    at ").append(frame).append('\n');
            }
        }
        return out.toString();
    }
}
