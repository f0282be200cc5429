package org.weft.mm.spi;

/**
 * A module for tests that is its own communication object to every peer: tests give it {@code send}, and override
 * what else they exercise.
 */
public abstract class StubMethod extends StubModule implements CommObject {
    protected StubMethod(String name) {
        super(name);
    }

    @Override
    public String methodName() {
        return name();
    }

    @Override
    public CommObject connect(int peerRank, Descriptor remote) {
        return this;
    }
}
