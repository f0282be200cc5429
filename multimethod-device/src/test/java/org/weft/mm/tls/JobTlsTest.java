package org.weft.mm.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.security.cert.CertificateException;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.Test;

/**
 * The credentials and engines of {@link JobTls}, handshaking through memory: two ranks of a job agree; a stranger,
 * a rank of another job, a rank answering for another one and a recorded handshake replayed are refused.
 */
class JobTlsTest {
    private static final String JOB = "job-1";
    private static final String SECRET = "secret-of-job-1";

    @Test
    void twoRanksOfAJobShakeHandsOnTls13WithAesGcm() throws Exception {
        JobTls rank0 = JobTls.create(JOB, SECRET, 0);
        JobTls rank1 = JobTls.create(JOB, SECRET, 1);
        SSLEngine client = rank1.engine(0, true);
        SSLEngine server = rank0.engine(1, false);
        handshake(client, server);
        assertEquals("TLSv1.3", client.getSession().getProtocol());
        assertTrue(client.getSession().getCipherSuite().contains("_GCM_"), client.getSession().getCipherSuite());
        assertEquals("TLS_AES_128_GCM_SHA256", server.getSession().getCipherSuite());
        assertEquals(1, RankCertificate.verify(
                (java.security.cert.X509Certificate) server.getSession().getPeerCertificates()[0], JOB, SECRET));
    }

    @Test
    void aRankOfAnotherJobIsRefusedAsClientAndAsServer() throws Exception {
        JobTls mine = JobTls.create(JOB, SECRET, 0);
        JobTls theirs = JobTls.create("job-2", "secret-of-job-2", 1);
        SSLException asClient = assertThrows(SSLException.class,
                () -> handshake(theirs.engine(0, true), mine.engine(1, false)));
        assertTrue(messages(asClient).contains("another job"), messages(asClient));
        SSLException asServer = assertThrows(SSLException.class,
                () -> handshake(mine.engine(1, true), theirs.engine(0, false)));
        assertTrue(messages(asServer).contains("another job"), messages(asServer));
    }

    @Test
    void aRankAnsweringForAnotherRankIsRefused() throws Exception {
        JobTls rank0 = JobTls.create(JOB, SECRET, 0);
        JobTls rank2 = JobTls.create(JOB, SECRET, 2);
        SSLException e = assertThrows(SSLException.class,
                () -> handshake(rank0.engine(1, true), rank2.engine(0, false))); // rank 0 dialled rank 1
        assertTrue(messages(e).contains("certificate of rank 2 where rank 1 was expected"), messages(e));
    }

    @Test
    void aCertificateWithoutTheJobsProofIsAStrangers() throws Exception {
        RankCertificate stranger = RankCertificate.create(JOB, "a guessed secret", 0);
        CertificateException e = assertThrows(CertificateException.class,
                () -> RankCertificate.verify(stranger.certificate(), JOB, SECRET));
        assertTrue(e.getMessage().contains("another job (or a stranger's)"), e.getMessage());
        assertEquals(0, RankCertificate.verify(stranger.certificate(), JOB, "a guessed secret"));
    }

    @Test
    void aRecordedClientHandshakeReplayedToTheSameRankFails() throws Exception {
        JobTls rank0 = JobTls.create(JOB, SECRET, 0);
        JobTls rank1 = JobTls.create(JOB, SECRET, 1);
        ByteArrayOutputStream clientFlight = handshake(rank1.engine(0, true), rank0.engine(1, false));
        SSLEngine server = rank0.engine(1, false);
        server.beginHandshake();
        ByteBuffer recorded = ByteBuffer.wrap(clientFlight.toByteArray());
        ByteBuffer toClient = ByteBuffer.allocate(1 << 16);
        SSLException e = assertThrows(SSLException.class, () -> {
            for (int i = 0; i < 100 && server.getHandshakeStatus() != HandshakeStatus.NOT_HANDSHAKING; i++) {
                step(server, recorded, toClient, null);
            }
        });
        assertTrue(server.getHandshakeStatus() != HandshakeStatus.NOT_HANDSHAKING, messages(e));
    }

    /** Runs a handshake between two engines through memory; returns what the client sent. */
    static ByteArrayOutputStream handshake(SSLEngine client, SSLEngine server) throws SSLException {
        ByteBuffer toServer = ByteBuffer.allocate(1 << 16);
        ByteBuffer toClient = ByteBuffer.allocate(1 << 16);
        ByteArrayOutputStream clientBytes = new ByteArrayOutputStream();
        client.beginHandshake();
        server.beginHandshake();
        for (int i = 0; i < 200; i++) {
            if (client.getHandshakeStatus() == HandshakeStatus.NOT_HANDSHAKING
                    && server.getHandshakeStatus() == HandshakeStatus.NOT_HANDSHAKING) {
                return clientBytes;
            }
            toClient.flip();
            step(client, toClient, toServer, clientBytes);
            toClient.compact();
            toServer.flip();
            step(server, toServer, toClient, null);
            toServer.compact();
        }
        throw new AssertionError("handshake did not end: client " + client.getHandshakeStatus() + ", server "
                + server.getHandshakeStatus());
    }

    /** One step of {@code engine}: reads from {@code in} (read mode), writes to {@code out} (write mode). */
    private static void step(SSLEngine engine, ByteBuffer in, ByteBuffer out, ByteArrayOutputStream record)
            throws SSLException {
        switch (engine.getHandshakeStatus()) {
            case NEED_TASK -> {
                Runnable task;
                while ((task = engine.getDelegatedTask()) != null) {
                    task.run();
                }
            }
            case NEED_WRAP -> {
                int before = out.position();
                engine.wrap(ByteBuffer.allocate(0), out);
                if (record != null) {
                    record.write(out.array(), before, out.position() - before);
                }
            }
            case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> engine.unwrap(in, ByteBuffer.allocate(1 << 17));
            default -> { }
        }
    }

    private static String messages(Throwable t) {
        StringBuilder all = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            all.append(c).append(" / ");
        }
        return all.toString();
    }
}
