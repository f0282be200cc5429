package org.weft.bench;

/**
 * The command line of a benchmark that takes only {@code -m maxBytes} and {@code -i iterations} (pphandle,
 * selfcost, steady); an unknown option is refused with the list of the known ones.
 */
public record SizeAndIterations(int maxBytes, int iterations) {
    public static SizeAndIterations parse(String[] args, int defaultMaxBytes, int defaultIterations) {
        int maxBytes = defaultMaxBytes;
        int iterations = defaultIterations;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-m" -> maxBytes = Integer.parseInt(args[++i]);
                case "-i" -> iterations = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + " (options: -m maxBytes, -i iterations)");
            }
        }
        return new SizeAndIterations(maxBytes, iterations);
    }
}
