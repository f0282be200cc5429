package org.weft.mm.spi;

/**
 * A module for tests that needs only a name: it can run, starts at once, offers an empty descriptor, connects
 * nobody, delivers nothing. Tests override what they exercise.
 */
public class StubModule implements CommModule {
    private final String name;

    public StubModule(String name) {
        this.name = name;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String unavailabilityCause(ModuleContext context) {
        return null;
    }

    @Override
    public void init(ModuleContext context) {
    }

    @Override
    public Descriptor localDescriptor() {
        return new Descriptor(name, new byte[0]);
    }

    @Override
    public CommObject connect(int peerRank, Descriptor remote) {
        return null;
    }

    @Override
    public long eagerLimit() {
        return 0;
    }

    @Override
    public int poll() {
        return 0;
    }

    @Override
    public void shutdown() {
    }
}
