package org.weft.mm.progress;

import org.weft.mm.spi.Doorbell;
import org.weft.mm.spi.StubModule;

/** A module for the progress engine's tests: counts its polls, finds the work it is told to, has a given doorbell. */
final class CountingModule extends StubModule {
    private final Doorbell doorbell;
    int polls;
    int workToFind;
    int flushes;

    CountingModule(String name) {
        this(name, null);
    }

    CountingModule(String name, Doorbell doorbell) {
        super(name);
        this.doorbell = doorbell;
    }

    @Override
    public Doorbell doorbell() {
        return doorbell;
    }

    @Override
    public void flush() {
        flushes++;
    }

    @Override
    public int poll() {
        polls++;
        int work = workToFind;
        workToFind = 0;
        return work;
    }
}
