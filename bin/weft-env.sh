# Sourced by bin/weftrun, bin/weft and bin/weftjavac: finds JDK 25 and Weft's jars.
# Sets WEFT_HOME, WEFT_JAVA_BIN (a JDK 25 bin directory), WEFT_CP (Weft's runtime class path), WEFT_AOT_DIR (where
# the AOT caches of this JDK and these jars are, trained or not: exported for the launcher) and WEFT_AOT_OPTS (the
# launcher JVM's options for its own cache, empty while there is none) and WEFT_LAUNCHER_JVM_OPTS (the launcher JVM's
# own options, which its cache is trained with).

weft_die() {
    echo "$WEFT_TOOL: $*" >&2
    exit 1
}

# The feature version of the JDK in $1 (a JDK home), or 0.
weft_jdk_feature() {
    local home=$1 version=""
    if [ -r "$home/release" ]; then
        version=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$home/release")
    fi
    if [ -z "$version" ] && [ -x "$home/bin/java" ]; then
        version=$("$home/bin/java" -version 2>&1 | sed -n '1s/.*version "\([0-9]*\).*/\1/p')
    fi
    echo "${version:-0}"
}

# JDK 25: $WEFT_JAVA (a JDK home or its java), then $JAVA_HOME if >= 25, then /usr/lib/jvm/temurin-25*.
weft_find_jdk() {
    local home candidate
    if [ -n "${WEFT_JAVA:-}" ]; then
        home=$WEFT_JAVA
        if [ -f "$home" ]; then home=$(dirname "$(dirname "$(readlink -f "$home")")"); fi
        [ -x "$home/bin/java" ] || weft_die "WEFT_JAVA=$WEFT_JAVA is neither a JDK nor its java"
        WEFT_JAVA_BIN=$home/bin
        return
    fi
    if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ] && [ "$(weft_jdk_feature "$JAVA_HOME")" -ge 25 ]; then
        WEFT_JAVA_BIN=$JAVA_HOME/bin
        return
    fi
    for candidate in /usr/lib/jvm/temurin-25*; do
        if [ -x "$candidate/bin/java" ]; then
            WEFT_JAVA_BIN=$candidate/bin
            return
        fi
    done
    weft_die "no JDK 25 found: set WEFT_JAVA or JAVA_HOME to a JDK 25 home"
}

# Weft's jars: an installed lib/ beside bin/ (holding the launcher jar too), else the build's
# launcher/target/lib (copy-dependencies) plus launcher/target/launcher-VERSION.jar.
weft_find_jars() {
    local lib jar launcher_jar=""
    if ls "$WEFT_HOME"/lib/launcher*.jar >/dev/null 2>&1; then
        lib=$WEFT_HOME/lib
    else
        lib=$WEFT_HOME/launcher/target/lib
        for jar in "$WEFT_HOME"/launcher/target/launcher-*.jar; do
            case $jar in *-sources.jar|*-tests.jar|*-javadoc.jar) ;; *) [ -f "$jar" ] && launcher_jar=$jar ;; esac
        done
        if [ -z "$launcher_jar" ] || ! ls "$lib"/*.jar >/dev/null 2>&1; then
            weft_die "Weft's jars are missing in $lib; build them first: (cd $WEFT_HOME && ./mvnw -q package -DskipTests)"
        fi
    fi
    WEFT_CP=$launcher_jar
    for jar in "$lib"/*.jar; do
        WEFT_CP=${WEFT_CP:+$WEFT_CP:}$jar
    done
}

# The AOT caches' directory: $WEFT_AOT_DIR if set, else aot/ beside the jars, in a subdirectory named after a
# fingerprint of the JDK and of every jar (path, size, modification time). The JDK does not notice a jar that changed
# under its cache (25.0.3 served the classes of the old jar), so other jars must mean another directory.
weft_aot_dir() {
    local base key
    if [ -z "${WEFT_AOT_DIR:-}" ]; then
        base=$(dirname "${WEFT_CP%%:*}")/aot
        # shellcheck disable=SC2086 # WEFT_CP's entries are paths without blanks or colons
        key=$({ echo "$WEFT_JAVA_BIN"; stat -L -c '%n %s %.9Y' "$WEFT_JAVA_BIN/../lib/modules" ${WEFT_CP//:/ }; } \
            | md5sum | cut -c1-16)
        WEFT_AOT_DIR=$base/$key
    fi
    export WEFT_AOT_DIR
    WEFT_AOT_OPTS=""
    if [ -f "$WEFT_AOT_DIR/launcher.aot" ]; then
        WEFT_AOT_OPTS="-XX:AOTCache=$WEFT_AOT_DIR/launcher.aot -Xlog:aot=off"
    fi
}

# Native access: the launcher reads how each rank ended from its pidfd (a signal, or an exit code).
WEFT_LAUNCHER_JVM_OPTS="--enable-native-access=ALL-UNNAMED"

WEFT_HOME=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd -P)
weft_find_jdk
weft_find_jars
weft_aot_dir
