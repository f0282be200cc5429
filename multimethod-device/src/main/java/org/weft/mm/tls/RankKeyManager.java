package org.weft.mm.tls;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/** Offers the one identity this rank has, its {@link RankCertificate}, as client and as server. */
final class RankKeyManager extends X509ExtendedKeyManager {
    private static final String ALIAS = "weft";
    private static final String KEY_TYPE = "EC";

    private final RankCertificate identity;

    RankKeyManager(RankCertificate identity) {
        this.identity = identity;
    }

    @Override
    public String chooseEngineClientAlias(String[] keyTypes, Principal[] issuers, SSLEngine engine) {
        return keyTypes != null && Arrays.asList(keyTypes).contains(KEY_TYPE) ? ALIAS : null;
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return KEY_TYPE.equals(keyType) ? ALIAS : null;
    }

    @Override
    public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
        return chooseEngineClientAlias(keyTypes, issuers, null);
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return chooseEngineServerAlias(keyType, issuers, null);
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return KEY_TYPE.equals(keyType) ? new String[] {ALIAS} : null;
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return getClientAliases(keyType, issuers);
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return ALIAS.equals(alias) ? new X509Certificate[] {identity.certificate()} : null;
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return ALIAS.equals(alias) ? identity.key() : null;
    }
}
