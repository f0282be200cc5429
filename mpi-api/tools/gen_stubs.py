#!/usr/bin/env python3
"""Generates 'not implemented yet' members of package mpi from the Open MPI Java API spec.

Usage: gen_stubs.py SPEC SRC_DIR [MISSING_REPORT]
 - classes without a source file are generated whole;
 - with MISSING_REPORT (target/spec-missing.txt of SpecSignatureTest), missing members of existing classes are
   inserted at their '// GENERATED-STUBS' marker.
Every generated body raises MPI_ERR_UNSUPPORTED_OPERATION naming the MPI operation.
"""
import os, re, sys

CLASS = re.compile(r"^((?:public |abstract |final )*)(class|interface) ([\w.$]+)(?: extends ([\w.$]+))?(?: implements ([\w.$,]+))? \{$")
METHOD = re.compile(r"^((?:public |protected |static |final |abstract |native |synchronized )*)(?:<(\w+) extends ([\w.$]+)> )?(?:([\w.$\[\]]+) )?([\w.$]+)\(([^)]*)\)(?: throws ([\w.$, ]+))?;$")
COMMS = {"Comm", "Intracomm", "Intercomm", "CartComm", "GraphComm"}
COLL = {"allGather": "allgather", "allGatherv": "allgatherv", "allToAll": "alltoall", "allToAllv": "alltoallv",
        "allToAllw": "alltoallw", "allReduce": "allreduce", "exScan": "exscan",
        "neighborAllGather": "neighbor_allgather", "neighborAllGatherv": "neighbor_allgatherv",
        "neighborAllToAll": "neighbor_alltoall", "neighborAllToAllv": "neighbor_alltoallv",
        "reduceScatter": "reduce_scatter", "reduceScatterBlock": "reduce_scatter_block", "barrier": "barrier"}
SPECIAL = {
    "Intracomm": {"split": "Comm_split", "splitType": "Comm_split_type", "create": "Comm_create",
                  "createGroup": "Comm_create_group", "createCart": "Cart_create", "createGraph": "Graph_create",
                  "createDistGraph": "Dist_graph_create", "createDistGraphAdjacent": "Dist_graph_create_adjacent",
                  "openPort": "Open_port", "closePort": "Close_port", "accept": "Comm_accept",
                  "connect": "Comm_connect", "publishName": "Publish_name", "unpublishName": "Unpublish_name",
                  "lookupName": "Lookup_name", "spawn": "Comm_spawn", "spawnMultiple": "Comm_spawn_multiple"},
    "CartComm": {"getTopo": "Cart_get", "getRank": "Cart_rank", "getCoords": "Cart_coords", "shift": "Cart_shift",
                 "sub": "Cart_sub", "map": "Cart_map", "createDims": "Dims_create"},
    "GraphComm": {"getDims": "Graphdims_get", "getNeighbors": "Graph_neighbors",
                  "getDistGraphNeighbors": "Dist_graph_neighbors", "map": "Graph_map"},
    "Intercomm": {"getRemoteSize": "Comm_remote_size", "getRemoteGroup": "Comm_remote_group",
                  "merge": "Intercomm_merge", "getParent": "Comm_get_parent"},
    "Win": {"put": "Put", "get": "Get", "accumulate": "Accumulate", "rPut": "Rput", "rGet": "Rget",
            "rAccumulate": "Raccumulate", "getAccumulate": "Get_accumulate", "rGetAccumulate": "Rget_accumulate",
            "compareAndSwap": "Compare_and_swap", "fetchAndOp": "Fetch_and_op", "waitFor": "Win_wait"},
    "File": {"getAMode": "File_get_amode", "delete": "File_delete"},
}


def snake(name):
    return re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()


def mpi_name(cls, name, params):
    if name == cls:  # constructor
        if cls == "Win":
            return {5: "MPI_Win_create", 6: "MPI_Win_allocate", 2: "MPI_Win_create_dynamic"}[len(params)]
        if cls == "File":
            return "MPI_File_open"
        return "MPI_" + cls
    if name in SPECIAL.get(cls, {}):
        return "MPI_" + SPECIAL[cls][name]
    if cls in COMMS:
        nb = len(name) > 1 and name[0] == "i" and name[1].isupper()
        base = name[1].lower() + name[2:] if nb else name
        op = COLL.get(base, snake(base))
        return "MPI_" + ("I" + op if nb else op[0].upper() + op[1:])
    if cls in ("File", "Win"):
        s = snake(name)
        s = re.sub(r"^i_", "i", s)
        return "MPI_" + cls + "_" + s
    return "MPI_" + cls + "_" + snake(name)


def java_type(t):
    t = t.replace("$", ".")
    for prefix in ("java.lang.", "mpi."):
        if t.startswith(prefix) and "." not in t[len(prefix):].replace("[]", "").replace("Struct.", ""):
            t = t[len(prefix):]
    return t


def param_names(types):
    names, bufs, used = [], 0, {}
    nbuf = sum(1 for t in types if t in ("java.lang.Object", "java.nio.Buffer"))
    prev = None
    for t in types:
        if t in ("java.lang.Object", "java.nio.Buffer"):
            n = ["sendbuf", "recvbuf"][bufs] if nbuf == 2 else "buf"
            bufs += 1
        elif t == "int":
            n = "root" if prev in ("mpi.Datatype", "mpi.Op") else "count" if prev in ("java.lang.Object", "java.nio.Buffer") else "value"
        elif t == "int[]":
            n = "displs" if prev == "int[]" else "counts"
        elif t == "mpi.Datatype":
            n = "type"
        elif t == "mpi.Datatype[]":
            n = "types"
        else:
            n = {"mpi.Op": "op", "mpi.Info": "info", "mpi.Comm": "comm", "mpi.Group": "group", "long": "offset",
                 "java.lang.String": "name", "boolean": "flag", "boolean[]": "flags"}.get(t, "arg")
        prev = t
        k = used.get(n, 0)
        used[n] = k + 1
        names.append(n if k == 0 else f"{n}{k + 1}")
    return names


def member(cls, line):
    m = METHOD.match(line)
    if not m:
        return None  # fields are written by hand
    mods, tvar, bound, ret, name, params, throws = m.groups()
    simple = name.split(".")[-1]
    ptypes = [p for p in params.split(",") if p] if params else []
    ptypes = [p.strip() for p in ptypes]
    args = ", ".join(f"{java_type(t)} {n}" for t, n in zip(ptypes, param_names(ptypes)))
    mods = " ".join(w for w in mods.split() if w != "native")
    thr = " throws MPIException" if throws else ""
    call = mpi_name(cls, simple, ptypes)
    if ret is None:
        head = f"    {mods} {cls}({args}){thr}"
    else:
        r = java_type(ret)
        if tvar:
            head = f"    {mods} <{tvar} extends {java_type(bound)}> {r} {simple}({args}){thr}"
        else:
            head = f"    {mods} {r} {simple}({args}){thr}"
    if simple == "clone" and cls in COMMS:
        body = f"        return ({cls}) super.clone();"
    elif throws and cls in COMMS and "static" not in mods and ret is not None:
        body = f'        throw Errors.unsupported(core(), "{call}");'
    elif throws:
        body = f'        throw Errors.unsupported("{call}");'
    else:
        body = f'        throw new UnsupportedOperationException("{call} is not implemented in Weft yet");'
    over = "    @Override\n" if (cls in ("CartComm", "GraphComm", "Intercomm") and simple in ("clone", "dup", "iDup", "dupWithInfo")) else ""
    return f"    /** {{@code {call}}} (not implemented in Weft yet). */\n{over}{head} {{\n{body}\n    }}\n"


def parse(spec):
    classes, cur = {}, None
    for raw in open(spec):
        line = raw.strip()
        if not line or line.startswith("#") or line == "}":
            continue
        c = CLASS.match(line)
        if c:
            cur = c.group(3)
            classes[cur] = (c, [])
        else:
            classes[cur][1].append(line)
    return classes


def main():
    spec, src = sys.argv[1], sys.argv[2]
    missing = open(sys.argv[3]).read().splitlines() if len(sys.argv) > 3 else []
    classes = parse(spec)
    for fq, (c, lines) in classes.items():
        cls = fq.split(".")[-1]
        if "$" in cls:
            continue
        path = os.path.join(src, cls + ".java")
        if not os.path.exists(path):
            seen, out = set(), []
            for line in lines:
                key = re.sub(r"^.*? ([\w.$]+\([^)]*\)).*$", r"\1", line)
                if key in seen:
                    continue  # bridge method of a covariant override
                seen.add(key)
                g = member(cls, line)
                if g:
                    out.append(g)
            ext = f" extends {java_type(c.group(4))}" if c.group(4) else ""
            imp = f" implements {', '.join(java_type(i) for i in c.group(5).split(','))}" if c.group(5) else ""
            ctor = ""
            if c.group(4) in ("mpi.Intracomm", "mpi.Comm"):
                ctor = f"    {cls}(org.weft.core.comm.Communicator communicator) {{\n        super(communicator);\n    }}\n\n"
            elif not any(METHOD.match(l) and METHOD.match(l).group(4) is None for l in lines):
                ctor = f"    {cls}() {{\n    }}\n\n"
            body = ctor + "\n".join(out)
            text = (f"package mpi;\n\n/** {cls} of the Open MPI Java bindings; not implemented in Weft yet: every operation raises "
                    f"{{@code MPI.ERR_UNSUPPORTED_OPERATION}}. */\n{c.group(1)}{c.group(2)} {cls}{ext}{imp} {{\n{body}}}\n")
            open(path, "w").write(text)
            print("generated", path)
        else:
            todo = [l.split(" :: ", 1)[1].rsplit("   <-- ", 1)[0] for l in missing
                    if l.startswith(fq + " :: ") and l.endswith("<-- missing")]
            seen, out = set(), []
            for line in todo:
                key = re.sub(r"^.*? ([\w.$]+\([^)]*\)).*$", r"\1", line)
                if key in seen:
                    continue
                seen.add(key)
                g = member(cls, line)
                if g:
                    out.append(g)
            if out:
                text = open(path).read()
                text = text.replace("    // GENERATED-STUBS\n", "\n".join(out) + "\n    // GENERATED-STUBS\n")
                open(path, "w").write(text)
                print("stubbed", len(out), "in", path)


main()
