package org.weft.mm.module.tcp;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSession;

/**
 * An {@link SSLEngine} that hands every call to the JDK's engine and counts the bytes the calling thread allocates
 * inside its wraps and unwraps: the part of a TLS path's garbage that is the JDK's, so that a test can tell it from
 * the rest, which is the caller's. Only the engine's abstract methods are overridden, so an allocation made by one
 * of {@code SSLEngine}'s convenience methods around them (a one-element array) counts as the caller's, as it should:
 * the caller chose that method.
 */
final class CountingEngine extends SSLEngine {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private final SSLEngine engine;
    private long insideBytes;
    private long records;

    CountingEngine(SSLEngine engine) {
        this.engine = engine;
    }

    /** Bytes allocated inside this engine's wraps and unwraps so far (by any thread). */
    long insideBytes() {
        return insideBytes;
    }

    /** Wraps and unwraps that produced or consumed application bytes so far. */
    long records() {
        return records;
    }

    @Override
    public SSLEngineResult wrap(ByteBuffer[] sources, int offset, int length, ByteBuffer destination)
            throws SSLException {
        long before = THREADS.getCurrentThreadAllocatedBytes();
        SSLEngineResult result = engine.wrap(sources, offset, length, destination);
        insideBytes += THREADS.getCurrentThreadAllocatedBytes() - before;
        records += result.bytesConsumed() > 0 ? 1 : 0;
        return result;
    }

    @Override
    public SSLEngineResult unwrap(ByteBuffer source, ByteBuffer[] destinations, int offset, int length)
            throws SSLException {
        long before = THREADS.getCurrentThreadAllocatedBytes();
        SSLEngineResult result = engine.unwrap(source, destinations, offset, length);
        insideBytes += THREADS.getCurrentThreadAllocatedBytes() - before;
        records += result.bytesProduced() > 0 ? 1 : 0;
        return result;
    }

    @Override
    public Runnable getDelegatedTask() {
        return engine.getDelegatedTask();
    }

    @Override
    public void closeInbound() throws SSLException {
        engine.closeInbound();
    }

    @Override
    public boolean isInboundDone() {
        return engine.isInboundDone();
    }

    @Override
    public void closeOutbound() {
        engine.closeOutbound();
    }

    @Override
    public boolean isOutboundDone() {
        return engine.isOutboundDone();
    }

    @Override
    public String[] getSupportedCipherSuites() {
        return engine.getSupportedCipherSuites();
    }

    @Override
    public String[] getEnabledCipherSuites() {
        return engine.getEnabledCipherSuites();
    }

    @Override
    public void setEnabledCipherSuites(String[] suites) {
        engine.setEnabledCipherSuites(suites);
    }

    @Override
    public String[] getSupportedProtocols() {
        return engine.getSupportedProtocols();
    }

    @Override
    public String[] getEnabledProtocols() {
        return engine.getEnabledProtocols();
    }

    @Override
    public void setEnabledProtocols(String[] protocols) {
        engine.setEnabledProtocols(protocols);
    }

    @Override
    public SSLSession getSession() {
        return engine.getSession();
    }

    @Override
    public void beginHandshake() throws SSLException {
        engine.beginHandshake();
    }

    @Override
    public SSLEngineResult.HandshakeStatus getHandshakeStatus() {
        return engine.getHandshakeStatus();
    }

    @Override
    public void setUseClientMode(boolean mode) {
        engine.setUseClientMode(mode);
    }

    @Override
    public boolean getUseClientMode() {
        return engine.getUseClientMode();
    }

    @Override
    public void setNeedClientAuth(boolean need) {
        engine.setNeedClientAuth(need);
    }

    @Override
    public boolean getNeedClientAuth() {
        return engine.getNeedClientAuth();
    }

    @Override
    public void setWantClientAuth(boolean want) {
        engine.setWantClientAuth(want);
    }

    @Override
    public boolean getWantClientAuth() {
        return engine.getWantClientAuth();
    }

    @Override
    public void setEnableSessionCreation(boolean create) {
        engine.setEnableSessionCreation(create);
    }

    @Override
    public boolean getEnableSessionCreation() {
        return engine.getEnableSessionCreation();
    }
}
