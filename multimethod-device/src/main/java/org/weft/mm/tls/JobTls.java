package org.weft.mm.tls;

import java.security.GeneralSecurityException;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;

/**
 * One rank's TLS for its job: its {@link RankCertificate} and an {@code SSLContext} that trusts only the job's
 * ranks ({@link JobTrustManager}). Engines speak TLS 1.3 only, AES-GCM (an intrinsic of the JDK on x86 and ARM),
 * X25519 key exchange, ECDSA P-256 signatures, and both ends present certificates.
 */
public final class JobTls {
    private static final String[] PROTOCOLS = {"TLSv1.3"};
    private static final String[] CIPHER_SUITES = {"TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384"};
    private static final String[] NAMED_GROUPS = {"x25519", "secp256r1"};
    private static final String[] SIGNATURE_SCHEMES = {"ecdsa_secp256r1_sha256"};

    private final SSLContext context;
    private final long setupNanos;

    private JobTls(SSLContext context, long setupNanos) {
        this.context = context;
        this.setupNanos = setupNanos;
    }

    /** Makes rank {@code rank}'s key and certificate and the context (a few milliseconds; see {@link #setupNanos}). */
    public static JobTls create(String jobId, String secret, int rank) {
        return create(jobId, jobId, secret, rank);
    }

    /**
     * The credentials of this process towards the processes of another job met through a port: its certificate
     * says it is rank {@code rankThere} of job {@code jobThere} (the other job's name for it) and proves the port
     * link's key; it trusts the certificates of this job's names for the other job's processes ({@code myJob}'s
     * ranks) that prove the same key.
     */
    public static JobTls create(String jobThere, String myJob, String linkKey, int rankThere) {
        long start = System.nanoTime();
        RankCertificate identity = RankCertificate.create(jobThere, linkKey, rankThere);
        try {
            SSLContext context = SSLContext.getInstance("TLSv1.3");
            context.init(new KeyManager[] {new RankKeyManager(identity)},
                    new TrustManager[] {new JobTrustManager(myJob, linkKey)}, null);
            return new JobTls(context, System.nanoTime() - start);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("TLS 1.3 is part of every JDK from 11 on", e);
        }
    }

    /**
     * An engine for one connection to {@code peerRank} ({@code client}: this side dialled). The peer must present
     * the certificate of that rank.
     */
    public SSLEngine engine(int peerRank, boolean client) {
        SSLEngine engine = context.createSSLEngine(String.valueOf(peerRank), 0);
        engine.setUseClientMode(client);
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setProtocols(PROTOCOLS);
        parameters.setCipherSuites(CIPHER_SUITES);
        parameters.setNamedGroups(NAMED_GROUPS);
        parameters.setSignatureSchemes(SIGNATURE_SCHEMES);
        parameters.setNeedClientAuth(true);
        engine.setSSLParameters(parameters);
        return engine;
    }

    /** What making the key, the certificate and the context took. */
    public long setupNanos() {
        return setupNanos;
    }
}
