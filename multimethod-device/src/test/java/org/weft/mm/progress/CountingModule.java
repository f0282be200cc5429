package org.weft.mm.progress;

import org.weft.mm.spi.CommModule;
import org.weft.mm.spi.CommObject;
import org.weft.mm.spi.Descriptor;
import org.weft.mm.spi.Doorbell;
import org.weft.mm.spi.ModuleContext;

/** A module for the progress engine's tests: counts its polls, finds the work it is told to, has a given doorbell. */
final class CountingModule implements CommModule {
    private final String name;
    private final Doorbell doorbell;
    int polls;
    int workToFind;

    CountingModule(String name) {
        this(name, null);
    }

    CountingModule(String name, Doorbell doorbell) {
        this.name = name;
        this.doorbell = doorbell;
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
    public Doorbell doorbell() {
        return doorbell;
    }

    @Override
    public int poll() {
        polls++;
        int work = workToFind;
        workToFind = 0;
        return work;
    }

    @Override
    public void shutdown() {
    }
}
