package org.weft.mm.tls;

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import org.weft.adi.bootstrap.BootstrapProtocol;

/**
 * A rank's TLS identity: a fresh P-256 key made in the rank itself (the private key never leaves the process) and a
 * self-signed X.509 certificate whose extension {@link #PROOF_OID} carries the rank and
 * {@code HMAC-SHA256(job secret, "weft tls key" | job id | rank | public key)}. The job's secret is the authority:
 * a peer accepts the certificate when the proof checks (only a holder of the secret can bind a key to a rank of the
 * job), and TLS makes the holder prove it has the key. Nothing travels to make it (no certificate authority in the
 * launcher, nothing on the bootstrap connection), so a job that never leaves a site never pays for it.
 *
 * <pre>
 * proof extension (non-critical), extnValue = OCTET STRING { rank (int32, big-endian) | HMAC (32 bytes) }
 * </pre>
 */
public record RankCertificate(int rank, PrivateKey key, X509Certificate certificate) {
    /** A private OID (2.25: an arc made of a random UUID, needing no registration). */
    static final String PROOF_OID = "2.25.318401055893276526864834427511749503781";
    private static final byte[] DOMAIN = "weft tls key".getBytes(StandardCharsets.US_ASCII);
    private static final String SIGNATURE = "SHA256withECDSA";
    private static final String ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2";
    private static final String COMMON_NAME = "2.5.4.3";
    private static final int PROOF_BYTES = 4 + 32;

    /** Makes rank {@code rank}'s key and certificate for the job {@code jobId} whose secret is {@code secret}. */
    public static RankCertificate create(String jobId, String secret, int rank) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            KeyPair pair = generator.generateKeyPair();
            byte[] publicKey = pair.getPublic().getEncoded(); // SubjectPublicKeyInfo, as the certificate holds it
            byte[] proof = ByteBuffer.allocate(PROOF_BYTES).putInt(rank)
                    .put(proof(secret, jobId, rank, publicKey)).array();
            byte[] name = Der.sequence(Der.set(Der.sequence(Der.oid(COMMON_NAME), Der.utf8("weft rank " + rank))));
            byte[] algorithm = Der.sequence(Der.oid(ECDSA_WITH_SHA256));
            Instant now = Instant.now();
            byte[] extension = Der.sequence(Der.oid(PROOF_OID), Der.octetString(Der.octetString(proof)));
            byte[] toBeSigned = Der.sequence(
                    Der.explicit(0, Der.integer(BigInteger.TWO)), // v3
                    Der.integer(new BigInteger(64, new SecureRandom())),
                    algorithm, name,
                    Der.sequence(Der.utcTime(now.minus(Duration.ofDays(1))), Der.utcTime(now.plus(Duration.ofDays(3650)))),
                    name, publicKey,
                    Der.explicit(3, Der.sequence(extension)));
            Signature signer = Signature.getInstance(SIGNATURE);
            signer.initSign(pair.getPrivate());
            signer.update(toBeSigned);
            byte[] encoded = Der.sequence(toBeSigned, algorithm, Der.bitString(signer.sign()));
            X509Certificate certificate = (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(encoded));
            return new RankCertificate(rank, pair.getPrivate(), certificate);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("EC P-256 and SHA256withECDSA are part of every JDK", e);
        }
    }

    /**
     * The rank whose key {@code certificate} binds to the job {@code jobId}; throws {@link CertificateException}
     * saying why when it does not prove membership (a stranger's, another job's, a tampered one).
     */
    public static int verify(X509Certificate certificate, String jobId, String secret) throws CertificateException {
        byte[] extension = certificate.getExtensionValue(PROOF_OID);
        // extnValue's OCTET STRING around our OCTET STRING: two 2-byte headers before the proof.
        if (extension == null || extension.length != 4 + PROOF_BYTES) {
            throw new CertificateException("not a certificate of a Weft rank (no proof of membership)");
        }
        ByteBuffer proof = ByteBuffer.wrap(extension, 4, PROOF_BYTES);
        int rank = proof.getInt();
        byte[] mac = Arrays.copyOfRange(extension, 8, extension.length);
        byte[] expected = proof(secret, jobId, rank, certificate.getPublicKey().getEncoded());
        if (!MessageDigest.isEqual(mac, expected)) {
            throw new CertificateException("certificate of rank " + rank + " of another job (or a stranger's)");
        }
        return rank;
    }

    private static byte[] proof(String secret, String jobId, int rank, byte[] publicKey) {
        byte[] job = jobId.getBytes(StandardCharsets.UTF_8);
        return BootstrapProtocol.proof(secret, ByteBuffer.allocate(DOMAIN.length + 4 + job.length + 4
                + publicKey.length).put(DOMAIN).putInt(job.length).put(job).putInt(rank).put(publicKey).array());
    }
}
