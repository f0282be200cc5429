package org.weft.launcher.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** An mpirun's tagged lines (Open MPI's or Hydra's) carry global ranks once forwarded; its own lines pass untouched. */
class OpenMpiRetagTest {
    @Test
    void openMpiTagsBecomeWeftTagsWithGlobalRanks() {
        String in = "[1,0]<stdout>:hello\n[12433,1]<stderr>:x [2,3]<stdout>:y\nplain line\n[1,x]<stdout>:odd\n"
                + "[1,1]<stdout>:";
        assertEquals("[1,5]<stdout>:hello\n[1,6]<stderr>:x [2,3]<stdout>:y\nplain line\n[1,x]<stdout>:odd\n"
                + "[1,6]<stdout>:\n", forward(in, LineTag.openMpi(5)));
    }

    @Test
    void hydraTagsBecomeWeftTagsWithGlobalRanksOnTheirStream() {
        String in = "[0] hello\n[1] \n[12]x\n[mpiexec@vm] its own\n[3] last";
        assertEquals("[1,2]<stderr>:hello\n[1,3]<stderr>:\n[12]x\n[mpiexec@vm] its own\n[1,5]<stderr>:last\n",
                forward(in, LineTag.hydra(2, "stderr")));
    }

    @Test
    void untaggedForwardingKeepsALastLineWithoutNewlineAsItIs() {
        assertEquals("a\nb", forward("a\nb", LineTag.none()));
        assertEquals("[1,2]<stdout>:a\n[1,2]<stdout>:b\n", forward("a\nb", LineTag.fixed("[1,2]<stdout>:")));
    }

    private static String forward(String text, LineTag tag) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new LineForwarder(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), new OutputSink(out), tag)
                .run();
        return out.toString(StandardCharsets.UTF_8);
    }
}
