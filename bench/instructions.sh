#!/usr/bin/env bash
# bench/instructions.sh: user-space instructions and code per request, Formwright against the ceiling,
# counted by valgrind's callgrind. Where req/s on a shared machine moves by several points between runs,
# these counts repeat exactly: use them to see what a change did to the request path. Besides the
# instructions, the code a request runs (64-byte lines, bench/codelines.py) costs of its own here: each
# request reads its code in afresh after the kernel's, so lines cost where instructions in a loop hardly do.
#
# Each server runs alone under callgrind with counting off; after start-up and a warm-up, counting is
# switched on for REQUESTS keep-alive requests on one connection, then off again. Progress goes to
# stderr; a table per scenario goes to stdout. Scenarios: static (GET a 5 KB file), page (GET
# PAGE_PATH), page-browser (the same with the header fields a browser sends, which wrk does not),
# submit (POST a valid calendar event to /forms/event, urlencoded, Accept: application/json, as
# bench/submit-event.sh sends it). Knobs: SCENARIOS (static,page,submit),
# REQUESTS (2000), PAGE_PATH (/forms/event), FORMWRIGHT_BIN (else a release build), SWIFT, CC, FORMS,
# TOP (25: Formwright's functions listed by their code lines), KEEP (a folder: Formwright's callgrind
# files are kept in KEEP/SCENARIO).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
# shellcheck source=bench/workspace.sh
source "$here/workspace.sh"

SCENARIOS=${SCENARIOS:-static,page,submit}
REQUESTS=${REQUESTS:-2000}
TOP=${TOP:-25}
PAGE_PATH=${PAGE_PATH:-/forms/event}
PORT=${PORT:-18790}

log() { printf 'instructions: %s\n' "$*" >&2; }
die() {
    log "error: $*"
    exit 1
}

if ! [[ $REQUESTS =~ ^[0-9]+$ ]] || ((REQUESTS < 100)); then die "REQUESTS must be a whole number of at least 100"; fi
for tool in valgrind callgrind_control callgrind_annotate python3 curl strip "$CC" pkg-config; do
    command -v "$tool" >/dev/null || die "'$tool' is not installed (apt-get install valgrind binutils curl)"
done

# Valgrind follows no exec, so the server is started directly, with its secret from the environment
# (event-body.sh exports FORMWRIGHT_SECRET, the one the submitted token is signed with).
open_workspace instructions
# Valgrind 3.19 (Debian 12) cannot read the DWARF 5 Swift emits: count a copy without debug info.
cp "$FORMWRIGHT_BIN" "$tmp/formwright"
strip --strip-debug "$tmp/formwright"
mkdir "$tmp/public"
make_bench_page "$tmp/public/page.html" 5120 || die "cannot write page.html"
write_event_body "$tmp/event.body" || die "cannot write the event body"

# PATH COUNT [BODY_FILE COOKIE | browser]: GETs PATH (with the fourteen header fields Chromium sends
# for a navigation, given `browser`), or with a body POSTs it urlencoded as an API client does, COUNT
# times on one keep-alive connection; exits non-zero unless every answer is a 200.
cat >"$tmp/client.py" <<'PY'
import socket, sys
port, path, count = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
connection = socket.create_connection(("127.0.0.1", port), timeout=60)
if len(sys.argv) == 5 and sys.argv[4] == "browser":
    request = (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: keep-alive\r\n"
               'sec-ch-ua: "Chromium";v="120", "Not?A_Brand";v="8"\r\nsec-ch-ua-mobile: ?0\r\n'
               'sec-ch-ua-platform: "Linux"\r\nUpgrade-Insecure-Requests: 1\r\n'
               "User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
               "Chrome/120.0.0.0 Safari/537.36\r\n"
               "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8\r\n"
               "Sec-Fetch-Site: none\r\nSec-Fetch-Mode: navigate\r\nSec-Fetch-User: ?1\r\n"
               "Sec-Fetch-Dest: document\r\nAccept-Encoding: gzip, deflate, br\r\n"
               "Accept-Language: en-GB,en;q=0.9\r\n\r\n").encode()
elif len(sys.argv) > 4:
    body = open(sys.argv[4], "rb").read()
    request = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
               "Content-Type: application/x-www-form-urlencoded\r\nAccept: application/json\r\n"
               f"Cookie: {sys.argv[5]}\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body
else:
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
pending = b""
for _ in range(count):
    connection.sendall(request)
    while b"\r\n\r\n" not in pending:
        chunk = connection.recv(65536)
        if not chunk: sys.exit("the server closed the connection")
        pending += chunk
    head, _, pending = pending.partition(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 200"): sys.exit(f"not a 200: {head[:80]!r}")
    length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")[1:]
                  if line.lower().startswith(b"content-length:"))
    while len(pending) < length:
        chunk = connection.recv(65536)
        if not chunk: sys.exit("the server closed the connection mid-body")
        pending += chunk
    pending = pending[length:]
PY
# Swift's reference counting: calls per request to swift_retain and swift_release, read from the
# call counts in callgrind's files. Each is a handful of instructions around an atomic
# read-modify-write, which costs many cycles where an ordinary instruction costs a fraction of one:
# a cost the instruction count underweights.
cat >"$tmp/refcounts.py" <<'PY'
import re, sys
requests, names, calls = int(sys.argv[1]), {}, 0
for path in sys.argv[2:]:
    callee = None
    for line in open(path, errors="replace"):
        named = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
        if named:
            kind, key, name = named.groups()
            if name: names[key] = name.strip()
            if kind == "cfn": callee = names.get(key)
            continue
        counted = re.match(r"calls=(\d+)", line)
        if counted and callee in ("swift_retain", "swift_release"): calls += int(counted.group(1))
print(calls // requests)
PY

# count NAME PATH COMMAND...: prints "total memset refcounts": instructions, memset's share of them,
# and retain and release calls, per request. The requests are
# client.py's, with the scenario's extra arguments (client_args: a body and a cookie for a POST).
count() {
    local name=$1 path=$2
    shift 2
    rm -f "$tmp"/callgrind.*
    valgrind --tool=callgrind --dump-instr=yes --instr-atstart=no --callgrind-out-file="$tmp/callgrind.%p" "$@" \
        >"$tmp/$name.log" 2>&1 &
    server=$!
    local i
    for ((i = 0; i < 240; i++)); do
        curl -fs -o /dev/null "http://$HOST:$PORT$path" && break
        kill -0 "$server" 2>/dev/null || die "$name stopped at start (see its log: $(tail -3 "$tmp/$name.log"))"
        sleep 0.5
    done
    python3 "$tmp/client.py" "$PORT" "$path" 50 "${client_args[@]}" || die "$name: the warm-up failed"
    callgrind_control -i on "$server" >/dev/null 2>&1
    python3 "$tmp/client.py" "$PORT" "$path" "$REQUESTS" "${client_args[@]}" || die "$name: the measured requests failed"
    callgrind_control -i off "$server" >/dev/null 2>&1
    kill -TERM "$server"
    wait "$server" || true
    server=
    local instructions
    instructions=$(callgrind_annotate --inclusive=no --threshold=100 "$tmp"/callgrind.* 2>/dev/null |
        awk -v n="$REQUESTS" '
            /PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 }
            /memset/ && $1 ~ /^[0-9,]+$/ { gsub(",", "", $1); memset += $1 }
            END { printf "%d %d\n", total / n, memset / n }')
    local lines
    # One pass over the files (large with --dump-instr): the totals line, then the detail.
    if [[ -n ${KEEP:-} && $name == formwright ]]; then
        mkdir -p "$KEEP/$scenario" && cp "$tmp"/callgrind.* "$KEEP/$scenario/"
    fi
    python3 "$here/codelines.py" "$REQUESTS" --top "$TOP" "$tmp"/callgrind.* >"$tmp/$name.codelines"
    lines=$(head -1 "$tmp/$name.codelines")
    tail -n +2 "$tmp/$name.codelines" >"$tmp/$name.lines"
    echo "$instructions $(python3 "$tmp/refcounts.py" "$REQUESTS" "$tmp"/callgrind.*) $lines"
}

IFS=, read -r -a scenarios <<<"$SCENARIOS"
for scenario in "${scenarios[@]}"; do
    client_args=()
    method=GET
    case $scenario in
    static) path=/static/page.html ceiling_file=$tmp/public/page.html ;;
    page | page-browser)
        path=$PAGE_PATH
        ceiling_file=$tmp/page.html
        [[ $scenario == page ]] || client_args=(browser)
        ;;
    submit)
        # The ceiling reads the same body and answers {"ok":true}; ceiling_file is for its GETs only.
        path=/forms/event ceiling_file=$tmp/public/page.html method=POST
        client_args=("$tmp/event.body" "fw_csrf=$EVENT_NONCE")
        ;;
    *) die "unknown scenario '$scenario' (known: static, page, page-browser, submit)" ;;
    esac
    log "$scenario: formwright, $REQUESTS requests: $method $path"
    read -r fw_total fw_memset fw_refcounts fw_lines fw_kib < <(count formwright "$path" "$tmp/formwright" \
        serve --host "$HOST" --port "$PORT" --public "$tmp/public" --forms "$FORMS" --threads 1 --store none)
    if [[ $scenario == page* ]]; then
        # The ceiling serves a copy of the page as Formwright renders it.
        "$tmp/formwright" serve --host "$HOST" --port "$PORT" \
            --public "$tmp/public" --forms "$FORMS" --threads 1 --store none >"$tmp/copy.log" 2>&1 &
        server=$!
        for ((i = 0; i < 100; i++)); do
            if curl -fs -o "$ceiling_file" "http://$HOST:$PORT$path"; then break; fi
            sleep 0.2
        done
        kill -TERM "$server"
        wait "$server" || true
        server=
        [[ -s $ceiling_file ]] || die "page: could not save Formwright's page for the ceiling"
    fi
    log "$scenario: ceiling"
    read -r c_total c_memset c_refcounts c_lines c_kib < <(count ceiling "$path" "$tmp/ceiling" -t 1 "$PORT" "$ceiling_file" "text/html; charset=utf-8")
    printf '\n== %s: %s %s, %d requests on one connection, 1 thread; user-space instructions per request\n' \
        "$scenario" "$method" "$path" "$REQUESTS"
    printf '   %-12s %10s %10s %10s %12s %18s\n' server total memset rest 'retain+rel.' 'code lines (KiB)'
    printf '   %-12s %10d %10d %10d %12d %10d (%5s)\n' ceiling "$c_total" "$c_memset" $((c_total - c_memset)) \
        "$c_refcounts" "$c_lines" "$c_kib"
    printf '   %-12s %10d %10d %10d %12d %10d (%5s)\n' formwright "$fw_total" "$fw_memset" $((fw_total - fw_memset)) \
        "$fw_refcounts" "$fw_lines" "$fw_kib"
    awk -v f=$((fw_total - fw_memset)) -v c=$((c_total - c_memset)) -v fl="$fw_lines" -v cl="$c_lines" \
        'BEGIN { printf "   formwright - ceiling: %d instructions per request besides memset (%.2fx the ceiling'"'"'s rest), %d code lines (%.1f KiB)\n", f - c, f / c, fl - cl, (fl - cl) * 64 / 1024 }'
    printf '   formwright'"'"'s code lines by object, and its %d largest functions:\n' "$TOP"
    sed 's/^/   /' "$tmp/formwright.lines"
done
printf '\nmemset is nearly all libmicrohttpd clearing its connection memory between requests; both servers pay it.\n'
printf 'retain+rel.: calls to swift_retain and swift_release, atomic operations the instruction count underweights.\n'
printf 'code lines: 64-byte lines of code run on every request (bench/codelines.py), read in afresh by each request.\n'
