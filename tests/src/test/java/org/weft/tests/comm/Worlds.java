package org.weft.tests.comm;

import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.params.provider.Arguments;
import org.weft.tests.harness.InProcessWorld;

/** The worlds the communicator and topology chapters run on: sizes 1 to 5 and 8, default methods and tcp only. */
public final class Worlds {
    private Worlds() {
    }

    /** Arguments (size, methods) where methods is {@code "default"} or {@code "tcp"}. */
    public static Stream<Arguments> sizesAndMethods() {
        return Stream.of("default", "tcp").flatMap(methods -> IntStream.of(1, 2, 3, 4, 5, 8)
                .mapToObj(size -> Arguments.of(size, methods)));
    }

    /** Sizes 2 to 5 (an intercommunicator needs two groups), default methods and tcp. */
    public static Stream<Arguments> twoGroupSizesAndMethods() {
        return sizesAndMethods().filter(a -> (int) a.get()[0] >= 2 && (int) a.get()[0] <= 5);
    }

    /** The in-process world of {@code size} ranks on {@code methods}. */
    public static InProcessWorld of(int size, String methods) {
        InProcessWorld world = InProcessWorld.of(size);
        return "default".equals(methods) ? world : world.with("methods", methods);
    }
}
