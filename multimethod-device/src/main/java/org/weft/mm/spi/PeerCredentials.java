package org.weft.mm.spi;

/**
 * What a connection between this process and one peer proves and names: this process's job rank as the peer
 * knows it, the peer's own job rank, the job the connection is made to (the peer's) and the key both prove holding.
 * Between processes of one job: their ranks, the job's id and secret. With a process of another job met through a
 * port ({@code foreign}): the ranks by which each job knows the other's process, the peer's job, and the key of the
 * port's link, which both jobs' processes hold and nobody else.
 */
public record PeerCredentials(int myRank, int peerRank, String jobId, String secret, boolean foreign) {
    @Override
    public String toString() { // never the secret
        return "rank " + myRank + " -> rank " + peerRank + " of job " + jobId + (foreign ? " (another job)" : "");
    }
}
