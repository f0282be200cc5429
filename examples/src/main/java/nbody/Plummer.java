package nbody;

import java.util.SplittableRandom;

/**
 * Initial conditions: a Plummer sphere of equal masses in N-body units (G = 1, total mass 1, energy -1/4), drawn as
 * Aarseth, Hénon and Wielen did, from a seed so that every rank draws the same particles without an exchange.
 */
final class Plummer {
    /** Radii beyond this many scale lengths are drawn again: a rare far particle only slows the run. */
    private static final double MAX_RADIUS = 10;

    final double[] positions;
    final double[] velocities;
    final double mass;

    Plummer(int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        positions = new double[3 * n];
        velocities = new double[3 * n];
        mass = 1.0 / n;
        double lengthScale = 3 * Math.PI / 16;
        double speedScale = Math.sqrt(1 / lengthScale);
        for (int i = 0; i < n; i++) {
            double r;
            do {
                r = 1 / Math.sqrt(Math.pow(random.nextDouble(1e-12, 1), -2.0 / 3) - 1);
            } while (r > MAX_RADIUS);
            isotropic(random, r * lengthScale, positions, 3 * i);
            isotropic(random, speed(random, r) * speedScale, velocities, 3 * i);
        }
        centre(positions, n);
        centre(velocities, n);
    }

    /** A speed at radius {@code r} by von Neumann's rejection from q^2 (1 - q^2)^3.5, q the escape speed's share. */
    private static double speed(SplittableRandom random, double r) {
        double q;
        double y;
        do {
            q = random.nextDouble();
            y = random.nextDouble() * 0.1;
        } while (y > q * q * Math.pow(1 - q * q, 3.5));
        return q * Math.sqrt(2) * Math.pow(1 + r * r, -0.25);
    }

    private static void isotropic(SplittableRandom random, double length, double[] into, int at) {
        double z = random.nextDouble(-1, 1);
        double phi = random.nextDouble(0, 2 * Math.PI);
        double across = Math.sqrt(1 - z * z);
        into[at] = length * across * Math.cos(phi);
        into[at + 1] = length * across * Math.sin(phi);
        into[at + 2] = length * z;
    }

    /** Moves the centre of mass (or its velocity) to rest at the origin. */
    private static void centre(double[] vectors, int n) {
        for (int axis = 0; axis < 3; axis++) {
            double sum = 0;
            for (int i = 0; i < n; i++) {
                sum += vectors[3 * i + axis];
            }
            double mean = sum / n;
            for (int i = 0; i < n; i++) {
                vectors[3 * i + axis] -= mean;
            }
        }
    }
}
