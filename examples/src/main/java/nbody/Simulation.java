package nbody;

/**
 * One rank's part of the simulation: every particle's position (its own block written here, the others' brought by
 * the exchange) and its own block's velocities and accelerations. A step is a kick-drift-kick leapfrog; forces are
 * summed over all particles in index order with Plummer softening, so that any distribution over ranks computes
 * bit for bit what one process does.
 */
final class Simulation {
    /** Brings every rank's block of {@code positions} to every rank (an allgather; nothing in a run of one). */
    interface Exchange {
        void positions(double[] positions) throws Exception;
    }

    private final double[] positions;
    private final double[] velocities;
    private final double[] accelerations;
    private final double mass;
    private final double softening2;
    private final int first;
    private final int count;

    /** Particles {@code first} to {@code first + count - 1} of {@code start} are this rank's. */
    Simulation(Plummer start, int first, int count, double softening) {
        positions = start.positions.clone();
        velocities = new double[3 * count];
        System.arraycopy(start.velocities, 3 * first, velocities, 0, 3 * count);
        accelerations = new double[3 * count];
        mass = start.mass;
        softening2 = softening * softening;
        this.first = first;
        this.count = count;
        computeAccelerations();
    }

    double[] positions() {
        return positions;
    }

    /** One step of {@code dt}; the exchange runs between the drift and the forces. */
    void step(double dt, Exchange exchange) throws Exception {
        kick(dt / 2);
        for (int k = 0; k < 3 * count; k++) {
            positions[3 * first + k] += velocities[k] * dt;
        }
        exchange.positions(positions);
        computeAccelerations();
        kick(dt / 2);
    }

    private void kick(double dt) {
        for (int k = 0; k < 3 * count; k++) {
            velocities[k] += accelerations[k] * dt;
        }
    }

    private void computeAccelerations() {
        int n = positions.length / 3;
        for (int i = 0; i < count; i++) {
            int at = 3 * (first + i);
            double x = positions[at];
            double y = positions[at + 1];
            double z = positions[at + 2];
            double ax = 0;
            double ay = 0;
            double az = 0;
            for (int j = 0; j < n; j++) { // j == i adds 0: softening keeps the distance above zero
                double dx = positions[3 * j] - x;
                double dy = positions[3 * j + 1] - y;
                double dz = positions[3 * j + 2] - z;
                double r2 = dx * dx + dy * dy + dz * dz + softening2;
                double scale = mass / (r2 * Math.sqrt(r2));
                ax += dx * scale;
                ay += dy * scale;
                az += dz * scale;
            }
            accelerations[3 * i] = ax;
            accelerations[3 * i + 1] = ay;
            accelerations[3 * i + 2] = az;
        }
    }

    /**
     * This rank's share of the energy: {kinetic, potential} of its block, the potential of each pair counted half
     * at each of its two particles (with the softened potential the forces come from). Sum the shares over ranks.
     */
    double[] energyShare() {
        int n = positions.length / 3;
        double kinetic = 0;
        double potential = 0;
        for (int i = 0; i < count; i++) {
            int at = 3 * (first + i);
            kinetic += 0.5 * mass * (velocities[3 * i] * velocities[3 * i] + velocities[3 * i + 1]
                    * velocities[3 * i + 1] + velocities[3 * i + 2] * velocities[3 * i + 2]);
            for (int j = 0; j < n; j++) {
                if (j != first + i) {
                    double dx = positions[3 * j] - positions[at];
                    double dy = positions[3 * j + 1] - positions[at + 1];
                    double dz = positions[3 * j + 2] - positions[at + 2];
                    potential -= 0.5 * mass * mass / Math.sqrt(dx * dx + dy * dy + dz * dz + softening2);
                }
            }
        }
        return new double[] {kinetic, potential};
    }
}
