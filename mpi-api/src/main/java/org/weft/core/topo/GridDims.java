package org.weft.core.topo;

import java.util.ArrayList;
import java.util.List;

import org.weft.adi.ErrorClass;
import org.weft.core.error.MpiErrors;

/**
 * {@code MPI_Dims_create}: fills the zero entries of {@code dims} so that the product is {@code nodes} and the
 * dimensions are as close to each other as possible, in non-increasing order.
 */
public final class GridDims {
    private GridDims() {
    }

    /**
     * Fills {@code dims} in place. {@code ERR_DIMS} for {@code nodes < 1}, a negative entry, or fixed entries
     * whose product does not divide {@code nodes}.
     */
    public static void fill(int nodes, int[] dims) {
        if (dims == null || nodes < 1) {
            throw MpiErrors.error(ErrorClass.ERR_DIMS, "need dims and a positive number of nodes, got " + nodes);
        }
        int fixed = 1;
        int free = 0;
        for (int d : dims) {
            if (d < 0) {
                throw MpiErrors.error(ErrorClass.ERR_DIMS, "dimension " + d + " is negative");
            }
            if (d == 0) {
                free++;
            } else {
                fixed *= d;
            }
        }
        if (nodes % fixed != 0 || (free == 0 && fixed != nodes)) {
            throw MpiErrors.error(ErrorClass.ERR_DIMS, "the fixed dimensions (product " + fixed
                    + ") do not divide " + nodes + " nodes");
        }
        if (free == 0) {
            return;
        }
        int[] chosen = balanced(nodes / fixed, free);
        for (int i = 0, k = 0; i < dims.length; i++) {
            if (dims[i] == 0) {
                dims[i] = chosen[k++];
            }
        }
    }

    /** {@code n} split into {@code parts} factors as equal as possible, largest first. */
    private static int[] balanced(int n, int parts) {
        int[] result = new int[parts];
        java.util.Arrays.fill(result, 1);
        List<Integer> primes = primeFactors(n);
        // Largest primes first, each to the currently smallest part: the classic greedy balance.
        for (int i = primes.size() - 1; i >= 0; i--) {
            int smallest = 0;
            for (int k = 1; k < parts; k++) {
                if (result[k] < result[smallest]) {
                    smallest = k;
                }
            }
            result[smallest] *= primes.get(i);
        }
        java.util.Arrays.sort(result);
        for (int i = 0; i < parts / 2; i++) {
            int t = result[i];
            result[i] = result[parts - 1 - i];
            result[parts - 1 - i] = t;
        }
        return result;
    }

    private static List<Integer> primeFactors(int n) {
        List<Integer> primes = new ArrayList<>();
        for (int p = 2; (long) p * p <= n; p++) {
            while (n % p == 0) {
                primes.add(p);
                n /= p;
            }
        }
        if (n > 1) {
            primes.add(n);
        }
        return primes;
    }
}
