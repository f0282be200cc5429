package org.weft.tests.harness;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/** Thread dumps for the failure message of a test that hung: of this JVM, or of another JVM by pid. */
public final class ThreadDumps {
    private ThreadDumps() {
    }

    /** Every thread of this JVM with its stack and the locks it holds or waits for. */
    public static String ofThisJvm() {
        StringBuilder dump = new StringBuilder();
        for (ThreadInfo info : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
            dump.append(info.toString());
        }
        return dump.toString();
    }

    /** {@code jcmd PID Thread.print} of another JVM of this machine; a line saying why not when it fails. */
    public static String ofProcess(long pid) {
        String jcmd = ProcessHandle.current().info().command()
                .map(java -> java.replaceFirst("java$", "jcmd")).orElse("jcmd");
        try {
            Process p = new ProcessBuilder(jcmd, Long.toString(pid), "Thread.print").redirectErrorStream(true).start();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "(jcmd " + pid + " timed out)\n";
            }
            return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no thread dump of " + pid + ": " + e + ")\n";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(interrupted)\n";
        }
    }
}
