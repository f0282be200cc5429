# Sourced by bin/weft-env.sh and by ./mvnw (POSIX sh): finds a JDK 25 or newer.
# weft_jdk_search sets WEFT_JDK_HOME and returns 0, or returns 1 with WEFT_JDK_NOTES saying what it found instead.
# Where it looks, in order: $WEFT_JAVA (a JDK home or its java: taken or refused, never passed over), $JAVA_HOME,
# the java on the PATH, then every JDK in /usr/lib/jvm.

WEFT_JDK_MIN=25

# The feature version of the JDK in $1 (a JDK home), or 0. Read with the shell's own read: every program this runs
# (sed, dirname) is a fork and an exec on the start path of each weftrun (issue 20, item 12).
weft_jdk_feature() {
    weft_v=""
    if [ -r "$1/release" ]; then
        while IFS= read -r weft_line || [ -n "$weft_line" ]; do
            case $weft_line in
                JAVA_VERSION=\"*)
                    weft_v=${weft_line#JAVA_VERSION=\"}
                    weft_v=${weft_v%%[!0-9]*}
                    break ;;
            esac
        done < "$1/release"
    fi
    if [ -z "$weft_v" ] && [ -x "$1/bin/java" ]; then
        weft_v=$("$1/bin/java" -version 2>&1 | sed -n '1s/.*version "\([0-9]*\).*/\1/p')
    fi
    echo "${weft_v:-0}"
}

# The JDK home of a java executable (symbolic links resolved: /usr/bin/java -> /usr/lib/jvm/X/bin/java).
weft_jdk_home_of() {
    weft_p=$(readlink -f "$1")
    weft_p=${weft_p%/*}
    echo "${weft_p%/*}"
}

# 0 when $1 is the home of a JDK 25 or newer; else a note ($2, a label, then $1) on why not.
weft_jdk_accept() {
    if [ ! -x "$1/bin/java" ]; then
        WEFT_JDK_NOTES="$WEFT_JDK_NOTES; $2$1 (no bin/java there)"
        return 1
    fi
    weft_f=$(weft_jdk_feature "$1")
    if [ "$weft_f" -lt "$WEFT_JDK_MIN" ]; then
        WEFT_JDK_NOTES="$WEFT_JDK_NOTES; $2$1 (JDK $weft_f)"
        return 1
    fi
    WEFT_JDK_HOME=$1
}

weft_jdk_search() {
    WEFT_JDK_NOTES=""
    WEFT_JDK_HOME=""
    if [ -n "${WEFT_JAVA:-}" ]; then
        weft_h=$WEFT_JAVA
        if [ -f "$weft_h" ]; then weft_h=$(weft_jdk_home_of "$weft_h"); fi
        weft_jdk_accept "$weft_h" WEFT_JAVA=
        weft_r=$?
        WEFT_JDK_NOTES="${WEFT_JDK_NOTES#; }"
        return $weft_r
    fi
    if [ -n "${JAVA_HOME:-}" ] && weft_jdk_accept "$JAVA_HOME" JAVA_HOME=; then
        return 0
    fi
    if command -v java >/dev/null 2>&1 \
            && weft_jdk_accept "$(weft_jdk_home_of "$(command -v java)")" "the PATH's java in "; then
        return 0
    fi
    for weft_h in /usr/lib/jvm/*; do
        if [ -x "$weft_h/bin/java" ] && [ ! -L "$weft_h" ] && weft_jdk_accept "$weft_h" ""; then
            return 0
        fi
    done
    WEFT_JDK_NOTES="${WEFT_JDK_NOTES#; }"
    WEFT_JDK_NOTES=${WEFT_JDK_NOTES:-"no JDK (WEFT_JAVA and JAVA_HOME unset, no java on the PATH or in /usr/lib/jvm)"}
    return 1
}
