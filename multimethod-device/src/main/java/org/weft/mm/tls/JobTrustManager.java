package org.weft.mm.tls;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Trusts the peer of an engine when its one certificate proves membership of this job ({@link RankCertificate})
 * and names the rank the engine was made for ({@link JobTls#engine}: the peer's rank is the engine's peer host). So a
 * stranger, a rank of another job, and a rank of this job answering for another one are all refused.
 */
final class JobTrustManager extends X509ExtendedTrustManager {
    private final String jobId;
    private final String secret;

    JobTrustManager(String jobId, String secret) {
        this.jobId = jobId;
        this.secret = secret;
    }

    private void check(X509Certificate[] chain, SSLEngine engine) throws CertificateException {
        if (chain == null || chain.length != 1) {
            throw new CertificateException("a Weft rank presents exactly one certificate, not "
                    + (chain == null ? 0 : chain.length));
        }
        int rank = RankCertificate.verify(chain[0], jobId, secret);
        String expected = engine == null ? null : engine.getPeerHost();
        if (!String.valueOf(rank).equals(expected)) {
            throw new CertificateException("certificate of rank " + rank + " where rank " + expected + " was expected");
        }
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        check(chain, engine);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        check(chain, engine);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        check(chain, null);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        check(chain, null);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        check(chain, null);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        check(chain, null);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[0];
    }
}
