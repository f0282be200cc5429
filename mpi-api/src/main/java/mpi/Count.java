package mpi;

/** A count that may exceed an {@code int} ({@code MPI_Count}). */
public final class Count implements Comparable {
    private long count;

    public Count(long count) {
        this.count = count;
    }

    public long getCount() {
        return count;
    }

    public void setCount(long count) {
        this.count = count;
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof Count other && other.count == count;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(count);
    }

    @Override
    public int compareTo(Object obj) {
        return Long.compare(count, ((Count) obj).count);
    }
}
