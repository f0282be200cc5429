package org.weft.mm;

import org.weft.adi.param.Parameter;
import org.weft.mm.module.nativempi.NativeMpiModule;
import org.weft.mm.module.nativempi.NativeMpiParameters;
import org.weft.mm.module.relay.RelayModule;
import org.weft.mm.module.relay.RelayParameters;
import org.weft.mm.module.self.SelfModule;
import org.weft.mm.module.shm.ShmModule;
import org.weft.mm.module.shm.ShmParameters;
import org.weft.mm.module.tcp.TcpModule;
import org.weft.mm.module.tcp.TcpParameters;
import org.weft.mm.progress.ProgressEngine;
import org.weft.mm.select.MethodOrder;
import org.weft.mm.spi.CommModule;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** The communication modules Weft knows, by method name, and the parameters they declare. */
public final class ModuleCatalog {
    private static final Map<String, Supplier<CommModule>> MODULES = new LinkedHashMap<>();
    private static final List<Parameter<?>> PARAMETERS = new ArrayList<>();

    static {
        MODULES.put("self", SelfModule::new);
        MODULES.put(ShmModule.NAME, ShmModule::new);
        MODULES.put(NativeMpiModule.NAME, NativeMpiModule::new);
        MODULES.put(TcpModule.NAME, TcpModule::new);
        MODULES.put(RelayModule.NAME, RelayModule::new);
        PARAMETERS.addAll(SelfModule.PARAMETERS);
        PARAMETERS.addAll(ShmParameters.ALL);
        PARAMETERS.addAll(NativeMpiParameters.ALL);
        PARAMETERS.addAll(TcpParameters.ALL);
        PARAMETERS.addAll(RelayParameters.ALL);
    }

    private ModuleCatalog() {
    }

    /** The names of the methods this build has, in default order. */
    public static List<String> known() {
        return MethodOrder.DEFAULT.stream().filter(MODULES::containsKey).toList();
    }

    /** Every parameter the device and its modules declare (for {@code weftrun --info}). */
    public static List<Parameter<?>> parameters() {
        List<Parameter<?>> all = new ArrayList<>(DeviceParameters.ALL);
        MODULES.keySet().forEach(method -> all.add(ProgressEngine.skipPoll(method)));
        all.addAll(PARAMETERS);
        return all;
    }

    /**
     * New, uninitialised modules for {@code order}. Methods of the default order this build lacks are skipped;
     * a method the user named that Weft does not know is an error.
     */
    public static List<CommModule> create(List<String> order, boolean userChosen) {
        List<String> unknown = MethodOrder.unknown(order, known());
        if (userChosen && !unknown.isEmpty()) {
            throw new IllegalArgumentException("methods: unknown method(s) " + unknown + "; this Weft has "
                    + known());
        }
        return order.stream().filter(MODULES::containsKey).map(name -> MODULES.get(name).get()).toList();
    }
}
