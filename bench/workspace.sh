# shellcheck shell=bash
# bench/workspace.sh: sourced by instructions.sh and cpu.sh, which measure one server at a time
# against the ceiling in a scratch folder. Callers set here and repo (the bench folder and the
# repository) first, and define log and die. Brings in page.sh and event-body.sh, and the knobs both
# scripts share: SWIFT, CC, FORMS, FORMWRIGHT_BIN (empty for a release build made here).
# shellcheck disable=SC2154 # here and repo are the caller's

# shellcheck source=bench/page.sh
source "$here/page.sh"
# shellcheck source=bench/event-body.sh
source "$here/event-body.sh"

SWIFT=${SWIFT:-swift}
CC=${CC:-cc}
FORMS=${FORMS:-$repo/Forms}
FORMWRIGHT_BIN=${FORMWRIGHT_BIN:-}
# shellcheck disable=SC2034 # used by the caller
HOST=127.0.0.1 # loopback only, on purpose

# open_workspace NAME: makes the scratch folder $tmp, removed on exit with any server still running
# ($server, a PID), and builds what both scripts measure: $FORMWRIGHT_BIN (a release build unless
# given) and $tmp/ceiling, the C ceiling.
open_workspace() {
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/formwright-$1.XXXXXX")
    server=
    trap close_workspace EXIT
    if [[ -z $FORMWRIGHT_BIN ]]; then
        log "building formwright (release)"
        SWIFT=$SWIFT "$repo/scripts/build-release" --product formwright >&2 || die "the release build failed"
        FORMWRIGHT_BIN=$(cd "$repo" && "$SWIFT" build -c release --show-bin-path)/formwright
    fi
    # shellcheck disable=SC2046 # pkg-config prints several words on purpose
    "$CC" -O2 -Wall -Wextra -o "$tmp/ceiling" "$here/ceiling.c" $(pkg-config --cflags --libs libmicrohttpd) >&2 ||
        die "cannot build bench/ceiling.c"
}

close_workspace() {
    if [[ -n $server ]] && kill -0 "$server" 2>/dev/null; then kill -KILL "$server" 2>/dev/null || true; fi
    rm -rf "$tmp"
}
