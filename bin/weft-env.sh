# Sourced by bin/weftrun, bin/weft and bin/weftjavac: finds JDK 25 and Weft's jars.
# Sets WEFT_HOME, WEFT_JAVA_BIN (a JDK 25+ bin directory), WEFT_CP (Weft's runtime class path), WEFT_AOT_DIR (where
# the AOT caches of this JDK and these jars are, trained or not: exported for the launcher) and WEFT_AOT_OPTS (an
# array: the launcher JVM's options for its own cache, empty while there is none) and WEFT_LAUNCHER_JVM_OPTS (the
# launcher JVM's own options, which its cache is trained with).

weft_die() {
    echo "$WEFT_TOOL: $*" >&2
    exit 1
}

# A JDK 25 or newer (bin/weft-jdk.sh): $WEFT_JAVA, $JAVA_HOME, the java on the PATH, /usr/lib/jvm; else a message
# that says what was found and what is needed.
weft_find_jdk() {
    . "$WEFT_HOME/bin/weft-jdk.sh"
    if ! weft_jdk_search; then
        weft_die "Weft needs a JDK $WEFT_JDK_MIN or newer and found $WEFT_JDK_NOTES." \
            "Install one (e.g. Temurin $WEFT_JDK_MIN) and set WEFT_JAVA or JAVA_HOME to its home."
    fi
    WEFT_JAVA_BIN=$WEFT_JDK_HOME/bin
}

# Whether the glob pattern in $1 matched a file (an unmatched pattern stays itself): without an ls.
weft_matched() {
    [ -e "$1" ]
}

# Weft's jars: an installed lib/ beside bin/ (holding the launcher jar too), else the build's
# launcher/target/lib (copy-dependencies) plus launcher/target/launcher-VERSION.jar.
weft_find_jars() {
    local lib jar launcher_jar=""
    if weft_matched "$WEFT_HOME"/lib/launcher*.jar; then
        lib=$WEFT_HOME/lib
    else
        lib=$WEFT_HOME/launcher/target/lib
        for jar in "$WEFT_HOME"/launcher/target/launcher-*.jar; do
            case $jar in *-sources.jar|*-tests.jar|*-javadoc.jar) ;; *) [ -f "$jar" ] && launcher_jar=$jar ;; esac
        done
        if [ -z "$launcher_jar" ] || ! weft_matched "$lib"/*.jar; then
            weft_die "Weft's jars are missing in $lib; build them first: (cd $WEFT_HOME && ./mvnw -q package -DskipTests)"
        fi
    fi
    WEFT_CP=$launcher_jar
    for jar in "$lib"/*.jar; do
        WEFT_CP=${WEFT_CP:+$WEFT_CP:}$jar
    done
}

# The AOT caches' directory: $WEFT_AOT_DIR if set, else aot/ beside the jars (or ~/.weft/aot), in a subdirectory
# named after a fingerprint of the JDK and of every jar (path, size, modification and change times: a release's jars
# all carry the build's fixed timestamp, unpacking sets the change time). The JDK does not notice a jar that changed
# under its cache (25.0.3 served the classes of the old jar), so other jars must mean another directory.
weft_aot_dir() {
    local base key
    if [ -z "${WEFT_AOT_DIR:-}" ]; then
        base=${WEFT_CP%%:*}
        base=${base%/*}/aot
        local jars
        IFS=: read -ra jars <<< "$WEFT_CP" # paths may hold blanks (a release unpacked in "My Apps")
        key=$({ echo "$WEFT_JAVA_BIN"; stat -L -c '%n %s %.9Y %.9Z' "$WEFT_JAVA_BIN/../lib/modules" "${jars[@]}"; } \
            | md5sum)
        key=${key:0:16}
        # An installed release may sit where this user cannot write (/opt): then caches go to ~/.weft/aot,
        # unless trained beside the jars already.
        if [ ! -d "$base/$key" ] && [ ! -w "$base" ] && [ ! -w "${base%/*}" ] && [ -n "${HOME:-}" ]; then
            base=$HOME/.weft/aot
        fi
        WEFT_AOT_DIR=$base/$key
    fi
    export WEFT_AOT_DIR
    WEFT_AOT_OPTS=()
    if [ -f "$WEFT_AOT_DIR/launcher.aot" ]; then
        # mapped where it was written, not at a random address (plan.AotCache says why)
        WEFT_AOT_OPTS=("-XX:AOTCache=$WEFT_AOT_DIR/launcher.aot" -Xlog:aot=off -XX:+UnlockDiagnosticVMOptions
            -XX:ArchiveRelocationMode=0)
    fi
}

# Native access: the launcher reads how each rank ended from its pidfd (a signal, or an exit code). C1 only, at ten
# times its thresholds: the launcher mostly waits, and the JIT compiling its start-up took as much CPU as the rest of
# it (~0.2 s a job, on cores the ranks start on: docs/performance.md, "2026-11-26, fourth"); what stays hot (a rank's
# output through its forwarder) still gets compiled.
WEFT_LAUNCHER_JVM_OPTS="--enable-native-access=ALL-UNNAMED -XX:TieredStopAtLevel=1 -XX:CompileThresholdScaling=10"

weft_self=$(readlink -f "$0")
WEFT_HOME=$(cd "${weft_self%/*}/.." && pwd -P)
weft_find_jdk
weft_find_jars
weft_aot_dir
