#!/usr/bin/env bash
# bench/run.sh: Formwright against the raw libmicrohttpd ceiling (bench/ceiling.c),
# on the same machine, in alternating rounds. Knobs: docs/benchmarks.md, "Running".
#
# Progress goes to stderr; per scenario, a table and a summary line go to stdout.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
# shellcheck source=bench/page.sh
source "$here/page.sh"

SWIFT=${SWIFT:-swift}
CC=${CC:-cc}
SCENARIOS=${SCENARIOS:-static}
ROUNDS=${ROUNDS:-2}
DURATION=${DURATION:-8}
WARMUP=${WARMUP:-2}
CONNECTIONS=${CONNECTIONS:-32}
WRK_THREADS=${WRK_THREADS:-1}
THREADS=${THREADS:-$(nproc)}
STAT=${STAT:-best}
FORMS=${FORMS:-$repo/Forms}
FORMWRIGHT_BIN=${FORMWRIGHT_BIN:-}
FORMWRIGHT_ARGS=${FORMWRIGHT_ARGS:-}
SUBMIT_PATH=${SUBMIT_PATH:-}
SUBMIT_BODY=${SUBMIT_BODY:-}
SUBMIT_HEADERS=${SUBMIT_HEADERS:-}
PAGE_PATH=${PAGE_PATH:-}
PAGE_HEADERS=${PAGE_HEADERS:-body}

PAGE_SIZE=5120
HOST=127.0.0.1 # loopback only, on purpose

log() { printf 'bench: %s\n' "$*" >&2; }
die() {
    log "error: $*"
    exit 1
}

# ---------------------------------------------------------------- checks

for knob in ROUNDS DURATION WARMUP CONNECTIONS WRK_THREADS THREADS; do
    [[ ${!knob} =~ ^[0-9]+$ ]] || die "$knob must be a whole number (got '${!knob}')"
done
((ROUNDS >= 1 && DURATION >= 1 && CONNECTIONS >= 1 && WRK_THREADS >= 1 && THREADS >= 1)) ||
    die "ROUNDS, DURATION, CONNECTIONS, WRK_THREADS and THREADS must be at least 1"
((CONNECTIONS >= WRK_THREADS)) || die "CONNECTIONS must be at least WRK_THREADS (wrk's rule)"
[[ $STAT == best || $STAT == median ]] || die "STAT must be 'best' or 'median' (got '$STAT')"

read -r -a scenarios <<<"${SCENARIOS//,/ }"
((${#scenarios[@]} > 0)) || die "SCENARIOS is empty"
for s in "${scenarios[@]}"; do
    case $s in
    static) ;;
    submit)
        [[ $SUBMIT_PATH == /* ]] || die "submit: set SUBMIT_PATH to the form's URL path on formwright, e.g. /forms/event"
        [[ -f $SUBMIT_BODY ]] || die "submit: set SUBMIT_BODY to a file holding an urlencoded body (got '$SUBMIT_BODY')"
        SUBMIT_BODY=$(cd "$(dirname "$SUBMIT_BODY")" && pwd)/$(basename "$SUBMIT_BODY")
        ;;
    page)
        [[ $PAGE_PATH == /* ]] || die "page: set PAGE_PATH to a URL path on formwright, e.g. /forms/event"
        [[ $PAGE_HEADERS == body || $PAGE_HEADERS == all ]] || die "PAGE_HEADERS must be 'body' or 'all'"
        ;;
    *) die "unknown scenario '$s' (known: static, submit, page)" ;;
    esac
done
for tool in wrk curl "$CC" pkg-config; do
    command -v "$tool" >/dev/null || die "'$tool' is not installed"
done

# ---------------------------------------------------------------- processes and cleanup

tmp=$(mktemp -d "${TMPDIR:-/tmp}/formwright-bench.XXXXXX")
pids=()

# Stops one process we started: TERM, then KILL after 10 s (formwright drains
# in-flight requests for up to 8 s after SIGTERM).
stop_pid() {
    local pid=$1 i
    kill -0 "$pid" 2>/dev/null || {
        wait "$pid" 2>/dev/null || true
        return 0
    }
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 100; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
        log "pid $pid ignored SIGTERM for 10 s; killing it"
        kill -KILL "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
}

forget_pid() {
    local keep=() p
    for p in "${pids[@]}"; do [[ $p == "$1" ]] || keep+=("$p"); done
    pids=("${keep[@]}")
}

cleanup() {
    local status=$? pid
    trap - EXIT INT TERM
    for pid in "${pids[@]}"; do stop_pid "$pid"; done
    rm -rf "$tmp"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

show_log() { # file: the last lines of a server's log, on failure
    [[ -s $1 ]] && sed 's/^/    | /' "$1" | tail -n 20 >&2
    return 0
}

# A port that nothing answers on, below the ephemeral range (so that wrk's and
# curl's client sockets cannot take it between this check and the bind).
free_port() {
    local low p i
    read -r low _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || low=32768
    ((low > 12000)) || low=32768
    for ((i = 0; i < 100; i++)); do
        p=$((10000 + RANDOM % (low - 10000)))
        if ! (exec 3<>"/dev/tcp/$HOST/$p") 2>/dev/null; then
            echo "$p"
            return 0
        fi
    done
    return 1
}

# wait_ready NAME PID URL LOG: curl URL until it answers 2xx, ~20 s at most.
wait_ready() {
    local name=$1 pid=$2 url=$3 logf=$4 i
    for ((i = 0; i < 100; i++)); do
        kill -0 "$pid" 2>/dev/null || {
            show_log "$logf"
            die "$name exited before answering $url"
        }
        curl -sf -o /dev/null --max-time 1 "$url" && return 0
        sleep 0.2
    done
    show_log "$logf"
    die "$name did not answer $url within 20 s"
}

ceiling_pid=
ceiling_base=
# start_ceiling FILE CONTENT_TYPE [-H 'NAME: VALUE']...: serves FILE on a kernel-chosen port, with the
# extra header fields given.
start_ceiling() {
    local logf=$tmp/ceiling.$RANDOM.log i port=
    # Made before the ceiling starts: the child opens it only once forked, and a `sed` of a file not yet
    # there fails, which `set -e` takes for the run failing.
    : >"$logf"
    "$tmp/ceiling" -t "$THREADS" "${@:3}" 0 "$1" "$2" >"$logf" 2>&1 &
    ceiling_pid=$!
    pids+=("$ceiling_pid")
    for ((i = 0; i < 100; i++)); do
        port=$(sed -n 's|^ceiling: listening on http://[0-9.]*:\([0-9]*\)/.*|\1|p' "$logf")
        [[ -n $port ]] && break
        kill -0 "$ceiling_pid" 2>/dev/null || break
        sleep 0.2
    done
    [[ -n $port ]] || {
        show_log "$logf"
        die "the ceiling did not start"
    }
    ceiling_base=http://$HOST:$port
    ceiling_log=$logf
    wait_ready ceiling "$ceiling_pid" "$ceiling_base/" "$logf"
}

stop_ceiling() {
    stop_pid "$ceiling_pid"
    forget_pid "$ceiling_pid"
    ceiling_pid=
}

# ---------------------------------------------------------------- measuring

wrk_pid=
# run_wrk OUT SECONDS URL [LUA]: one bounded wrk run; its report goes to OUT.
run_wrk() {
    local out=$1 secs=$2 url=$3 lua=${4:-}
    local args=(-t"$WRK_THREADS" -c"$CONNECTIONS" -d"${secs}s" --latency)
    [[ -n $lua ]] && args+=(-s "$lua")
    # In the background and waited for, so that a signal stops the run at once.
    wrk "${args[@]}" "$url" >"$out" 2>&1 &
    wrk_pid=$!
    pids+=("$wrk_pid")
    local rc=0
    wait "$wrk_pid" || rc=$?
    forget_pid "$wrk_pid"
    if ((rc != 0)) || ! grep -q '^Requests/sec:' "$out"; then
        show_log "$out"
        die "wrk failed against $url"
    fi
}

# The p99 line of wrk --latency ("99%  560.00us", "1.23ms", "1.02s", "2.00m") in µs.
p99_us() {
    awk '$1 == "99%" {
        v = $2; n = v + 0; u = v; sub(/^[0-9.]+/, "", u)
        if (u == "us") f = 1; else if (u == "ms") f = 1e3; else if (u == "s") f = 1e6
        else if (u == "m") f = 6e7; else if (u == "h") f = 3.6e9; else exit 1
        printf "%.1f\n", n * f; found = 1 }
        END { if (!found) exit 1 }' "$1"
}
rps_of() { awk '/^Requests\/sec:/ { print $2; found = 1 } END { if (!found) exit 1 }' "$1"; }
# Non-2xx/3xx answers plus socket errors: anything but 0 makes the figures suspect.
bad_of() {
    awk '/Non-2xx or 3xx responses:/ { n += $NF }
         /Socket errors:/ { gsub(/,/, ""); n += $4 + $6 + $8 + $10 }
         END { print n + 0 }' "$1"
}

fmt_time() { # µs -> 560us / 1.23ms / 1.02s
    awk -v t="$1" 'BEGIN { if (t < 1000) printf "%dus", t + 0.5; else if (t < 1e6) printf "%.2fms", t / 1e3; else printf "%.2fs", t / 1e6 }'
}

# aggregate KIND VALUES...: KIND is rps (higher is better) or lat (lower is better).
aggregate() {
    local kind=$1
    shift
    printf '%s\n' "$@" | sort -g | awk -v kind="$kind" -v stat="$STAT" '
        { v[NR] = $1 }
        END {
            if (stat == "best") r = (kind == "rps") ? v[NR] : v[1]
            else if (NR % 2) r = v[(NR + 1) / 2]
            else r = (v[NR / 2] + v[NR / 2 + 1]) / 2
            printf "%.1f\n", r
        }'
}

# probe NAME URL [curl args...]: status, header and body sizes, and whether the
# second of two requests reused the first one's connection (keep-alive).
probe_status=
probe_sizes=
probe_keepalive=
probe() {
    local name=$1 url=$2
    shift 2
    local out
    out=$(curl -s --max-time 5 "$@" -o "$tmp/probe.body" -o /dev/null \
        -w '%{http_code} %{size_header} %{size_download} %{num_connects}\n' "$url" "$url") ||
        die "$name: cannot fetch $url"
    local first second hdr body
    first=$(sed -n 1p <<<"$out")
    second=$(sed -n 2p <<<"$out")
    read -r probe_status hdr body _ <<<"$first"
    probe_sizes="$hdr+$body"
    if [[ $(awk '{ print $4 }' <<<"$second") == 0 ]]; then probe_keepalive=yes; else probe_keepalive=NO; fi
}

# measure SCENARIO DESCRIPTION FW_URL CEILING_URL [LUA]
measure() {
    local scenario=$1 what=$2 fw_url=$3 ceil_url=$4 lua=${5:-}
    local curl_args=()
    if [[ -n $lua ]]; then
        curl_args=(-X POST --data-binary "@$SUBMIT_BODY"
            -H 'Content-Type: application/x-www-form-urlencoded' -H 'Accept: application/json')
        local line
        while IFS= read -r line; do
            [[ -n $line ]] && curl_args+=(-H "$line")
        done <<<"$SUBMIT_HEADERS"
    fi

    # What each server answers, before any load: the comparison is only fair if
    # both answer 2xx/3xx and keep the connection alive.
    local -A status sizes keepalive
    local role url
    for role in ceiling formwright; do
        url=$ceil_url
        [[ $role == formwright ]] && url=$fw_url
        probe "$role" "$url" "${curl_args[@]}"
        status[$role]=$probe_status
        sizes[$role]=$probe_sizes
        keepalive[$role]=$probe_keepalive
        if [[ ! $probe_status =~ ^[23] ]]; then
            log "$scenario: $role answered $probe_status to ${lua:+POST }$url:"
            head -c 400 "$tmp/probe.body" | sed 's/^/    | /' >&2
            echo >&2
            die "$scenario: $role must answer 2xx or 3xx for the figures to mean anything"
        fi
        [[ $probe_keepalive == yes ]] ||
            log "warning: $scenario: $role closed the connection after a response (no keep-alive)"
    done

    if ((WARMUP > 0)); then
        log "$scenario: warm-up, ${WARMUP}s each"
        run_wrk "$tmp/warmup" "$WARMUP" "$ceil_url" "$lua"
        run_wrk "$tmp/warmup" "$WARMUP" "$fw_url" "$lua"
    fi

    local -A rps_list lat_list bad
    bad[ceiling]=0
    bad[formwright]=0
    local round order out r p
    for ((round = 1; round <= ROUNDS; round++)); do
        # ABBA order: neither server always runs first after the other's load.
        order="ceiling formwright"
        ((round % 2)) || order="formwright ceiling"
        for role in $order; do
            url=$ceil_url
            [[ $role == formwright ]] && url=$fw_url
            out=$tmp/wrk.$scenario.$role.$round
            log "$scenario: round $round/$ROUNDS, $role, ${DURATION}s"
            run_wrk "$out" "$DURATION" "$url" "$lua"
            r=$(rps_of "$out") || die "no Requests/sec line in wrk's report"
            p=$(p99_us "$out") || die "no 99% line in wrk's report"
            rps_list[$role]+="$r "
            lat_list[$role]+="$p "
            bad[$role]=$((bad[$role] + $(bad_of "$out")))
        done
    done

    local -A rps lat
    for role in ceiling formwright; do
        # shellcheck disable=SC2086 # word splitting of the value lists is wanted
        rps[$role]=$(aggregate rps ${rps_list[$role]})
        # shellcheck disable=SC2086
        lat[$role]=$(aggregate lat ${lat_list[$role]})
    done
    local rps_ratio lat_ratio paired
    rps_ratio=$(awk -v a="${rps[formwright]}" -v b="${rps[ceiling]}" 'BEGIN { printf "%.1f%%", 100 * a / b }')
    # The median of each round's own ratio: a round's two runs are adjacent in time, so a slow spell
    # of the machine weighs on both, where the ratio of medians can pair a fast spell with a slow one.
    # shellcheck disable=SC2086 # word splitting of the value lists is wanted
    paired=$(paste -d' ' <(printf '%s\n' ${rps_list[formwright]}) <(printf '%s\n' ${rps_list[ceiling]}) |
        awk '{ print 100 * $1 / $2 }' | sort -g | awk '
            { v[NR] = $1 }
            END { printf "%.1f%%", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
    lat_ratio=$(awk -v a="${lat[formwright]}" -v b="${lat[ceiling]}" 'BEGIN { printf "%.2fx", a / b }')

    local stat_note="best of $ROUNDS rounds (highest req/s, lowest p99)"
    [[ $STAT == median ]] && stat_note="median of $ROUNDS rounds"
    echo
    echo "== $scenario: $what"
    echo "   wrk -t$WRK_THREADS -c$CONNECTIONS -d${DURATION}s --latency${lua:+ -s bench/post.lua}; servers on $THREADS threads;" \
        "$ROUNDS rounds, alternating (ABBA); figures: $stat_note"
    printf '   %-11s %11s %9s  %-6s %-10s %-8s %s\n' server 'req/s' p99 status 'hdr+body' keepalive 'per round: req/s | p99'
    for role in ceiling formwright; do
        local rounds_rps rounds_lat
        # shellcheck disable=SC2086 # word splitting of the value list is wanted
        rounds_rps=$(printf '%s\n' ${rps_list[$role]} | awk '{ printf "%s%.0f", (NR > 1 ? " " : ""), $1 }')
        rounds_lat=$(for v in ${lat_list[$role]}; do printf '%s ' "$(fmt_time "$v")"; done)
        printf '   %-11s %11.1f %9s  %-6s %-10s %-8s %s | %s\n' "$role" "${rps[$role]}" "$(fmt_time "${lat[$role]}")" \
            "${status[$role]}" "${sizes[$role]}" "${keepalive[$role]}" "$rounds_rps" "${rounds_lat% }"
    done
    printf '   %-11s %11s %9s\n' 'fw/ceiling' "$rps_ratio" "$lat_ratio"
    printf '   %-11s %11s  (median of the %d per-round ratios)\n' 'paired' "$paired" "$ROUNDS"
    for role in ceiling formwright; do
        ((bad[$role] == 0)) ||
            echo "   WARNING: $role had ${bad[$role]} non-2xx/3xx answers or socket errors under load; its figures are suspect"
    done
    echo "$scenario: formwright $rps_ratio of ceiling req/s (paired rounds: $paired), p99 $lat_ratio"
}

# ---------------------------------------------------------------- build

if [[ -z $FORMWRIGHT_BIN ]]; then
    log "building formwright (release) with $SWIFT"
    SWIFT=$SWIFT "$repo/scripts/build-release" --product formwright >&2
    FORMWRIGHT_BIN=$repo/.build/release/formwright
fi
[[ -x $FORMWRIGHT_BIN ]] || die "no formwright binary at $FORMWRIGHT_BIN"

log "building the ceiling"
# shellcheck disable=SC2046 # pkg-config prints several words on purpose
"$CC" -O2 -Wall -Wextra -o "$tmp/ceiling" "$here/ceiling.c" $(pkg-config --cflags --libs libmicrohttpd) >&2 ||
    die "cannot build bench/ceiling.c (is libmicrohttpd-dev installed?)"

# ---------------------------------------------------------------- the page

# 5120 bytes of plain, deterministic HTML.
mkdir "$tmp/public"
make_bench_page "$tmp/public/page.html" "$PAGE_SIZE" || die "page.html is not $PAGE_SIZE bytes"

# ---------------------------------------------------------------- formwright

fw_port=$(free_port) || die "no free port found on $HOST"
fw_base=http://$HOST:$fw_port
fw_log=$tmp/formwright.log
read -r -a fw_extra <<<"$FORMWRIGHT_ARGS"
log "starting formwright on $fw_base"
"$FORMWRIGHT_BIN" serve --host "$HOST" --port "$fw_port" --public "$tmp/public" --forms "$FORMS" \
    --threads "$THREADS" --store none "${fw_extra[@]}" >"$fw_log" 2>&1 &
fw_pid=$!
pids+=("$fw_pid")
wait_ready formwright "$fw_pid" "$fw_base/healthz" "$fw_log"

# fetch_from_formwright URL FILE: saves the body, prints the content type.
fetch_from_formwright() {
    curl -sf --max-time 5 -D "$2.head" -o "$2" -w '%{content_type}' "$1" || die "formwright: cannot GET $1"
}

# ---------------------------------------------------------------- scenarios

for scenario in "${scenarios[@]}"; do
    case $scenario in
    static)
        path=/static/page.html
        ctype=$(fetch_from_formwright "$fw_base$path" "$tmp/static.body")
        cmp -s "$tmp/static.body" "$tmp/public/page.html" ||
            die "static: formwright's $path is not the bytes of page.html"
        start_ceiling "$tmp/public/page.html" "${ctype:-text/html; charset=utf-8}"
        measure static "GET $path, $PAGE_SIZE-byte page; ceiling serves the same bytes" \
            "$fw_base$path" "$ceiling_base$path"
        stop_ceiling
        ;;
    page)
        ctype=$(fetch_from_formwright "$fw_base$PAGE_PATH" "$tmp/page.body")
        # PAGE_HEADERS=all: the saved copy's header fields too (its security headers, its cookie), so
        # both servers send the same bytes but the date; `body`: the body with its Content-Type only.
        extra=()
        [[ $PAGE_HEADERS == body ]] || mapfile -d '' -t extra < <(header_options "$tmp/page.body.head")
        start_ceiling "$tmp/page.body" "${ctype:-text/html; charset=utf-8}" "${extra[@]}"
        measure page "GET $PAGE_PATH, rendered by formwright ($(wc -c <"$tmp/page.body") bytes); ceiling serves a saved copy (PAGE_HEADERS=$PAGE_HEADERS)" \
            "$fw_base$PAGE_PATH" "$ceiling_base$PAGE_PATH"
        stop_ceiling
        ;;
    submit)
        export SUBMIT_BODY SUBMIT_HEADERS
        start_ceiling "$tmp/public/page.html" "text/html; charset=utf-8"
        measure submit "POST $SUBMIT_PATH, $(wc -c <"$SUBMIT_BODY")-byte urlencoded body, Accept: application/json; ceiling reads it and answers {\"ok\":true}" \
            "$fw_base$SUBMIT_PATH" "$ceiling_base$SUBMIT_PATH" "$here/post.lua"
        stop_ceiling
        # Every POST the ceiling saw must have been read to the end.
        posts='' bytes=''
        read -r posts bytes < <(sed -n 's/.*served [0-9]* GET, \([0-9]*\) POST (\([0-9]*\) body bytes).*/\1 \2/p' "$ceiling_log") || true
        size=$(wc -c <"$SUBMIT_BODY")
        [[ -n ${posts:-} && $bytes -eq $((posts * size)) ]] ||
            log "warning: submit: the ceiling read ${bytes:-?} body bytes for ${posts:-?} POSTs of $size bytes"
        ;;
    esac
done
