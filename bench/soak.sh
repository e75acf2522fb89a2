#!/usr/bin/env bash
# bench/soak.sh: memory and file descriptors under sustained mixed load. A leak too small for any
# test to see (a few bytes a request) shows over millions of requests; this sends them.
#
# One release server (THREADS threads, --explain on) gets ROUNDS rounds of DURATION seconds. In each,
# at once: wrk loads the event page, valid API submissions, invalid browser submissions (a `422` page
# re-rendered with errors), a static file and an unknown path; a Python client sends, one connection
# each, what clients get wrong or do on purpose: multipart uploads, a body over --max-body, chunked
# bodies, JSON nested 10,000 deep, JSON API posts, explain requests, a header block that exhausts
# libmicrohttpd's memory, a body cut short by a client that goes away, wrong methods, Chinese pages.
#
# After each round, with every connection closed, it reads the server's resident memory (VmRSS) and
# open descriptors from /proc, and counts the round's answers by status from the access log. Prints
# a row per round and the growth from the end of round 1 (the allocator's arenas and the kernel's
# buffers settle during it) to the end of the last, per million requests. A leak grows every round;
# a `5xx` or a descriptor more than at the start is a defect whatever the memory does. Last, it stops
# the server with SIGTERM, as an operator would. Exits non-zero when the server stops on its own, a
# round sends nothing, or the stop does not exit 0.
#
# The server keeps valid submissions (--submissions, in the scratch folder), so the store's path is
# soaked too: each round also reports how many lines and files it kept. SUBMISSIONS=off leaves it out.
#
# Knobs: ROUNDS (6), DURATION (20 s), THREADS (2), PORT (18792), SUBMISSIONS (on), FORMWRIGHT_BIN (else
# a release build), SWIFT, CC, FORMS.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
# shellcheck source=bench/workspace.sh
source "$here/workspace.sh"

ROUNDS=${ROUNDS:-6}
DURATION=${DURATION:-20}
THREADS=${THREADS:-2}
PORT=${PORT:-18792}
SUBMISSIONS=${SUBMISSIONS:-on}

log() { printf 'soak: %s\n' "$*" >&2; }
die() {
    log "error: $*"
    exit 1
}

for knob in ROUNDS DURATION THREADS; do
    if ! [[ ${!knob} =~ ^[0-9]+$ ]] || ((${!knob} < 1)); then die "$knob must be a whole number of at least 1"; fi
done
((ROUNDS >= 2)) || die "ROUNDS must be at least 2: growth is measured from the end of round 1"
[[ $SUBMISSIONS == on || $SUBMISSIONS == off ]] || die "SUBMISSIONS must be on or off"
for tool in wrk curl python3 "$CC" pkg-config; do
    command -v "$tool" >/dev/null || die "'$tool' is not installed (apt-get install wrk curl)"
done

open_workspace soak
mkdir "$tmp/public"
make_bench_page "$tmp/public/page.html" 5120 || die "cannot write page.html"
write_event_body "$tmp/event.body" || die "cannot write the event body"
# The same event with an empty title and a malformed e-mail address: two errors, a 422.
sed -e 's/title=Team+lunch/title=/' -e 's/email=team%40example.com/email=nobody/' "$tmp/event.body" >"$tmp/invalid.body"

# The abuse client: PORT SECONDS NONCE (the CSRF cookie's); prints how many requests it sent. One connection per request, each
# closed by the client once answered (or at once, for the cut-short body).
cat >"$tmp/abuse.py" <<'PY'
import base64, hashlib, hmac, json, os, random, socket, sys, time
port, seconds, nonce = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
# A browser's upload carries the CSRF token of its form, computed as bench/event-body.sh does.
key = hashlib.sha256(os.environ["FORMWRIGHT_SECRET"].encode()).digest()
token = base64.urlsafe_b64encode(hmac.new(key, b"csrf\0others\0" + nonce.encode(), hashlib.sha256).digest()).rstrip(b"=")

def request(head, body=b""):
    return head.replace(b"\n", b"\r\n") + b"\r\n" + body

api = json.dumps({"title": "Lunch", "starts": "2026-11-23T12:00", "ends": "2026-11-23T13:00",
                  "alert": "never", "email": "a@example.com", "url": "https://example.com"}).encode()
nested = b'{"title":' + b"[" * 10000
def part(name, value):
    return b'--XX\r\nContent-Disposition: form-data; name="%s"\r\n\r\n%s\r\n' % (name, value)
upload = (part(b"_csrf", token) + part(b"count", b"2") + part(b"volume", b"50")
          + b'--XX\r\nContent-Disposition: form-data; name="photo"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n'
          + b"\x89PNG\r\n\x1a\n" + b"y" * 50000 + b"\r\n--XX--\r\n")
requests = [
    request(b"POST /forms/event HTTP/1.1\nHost: x\nContent-Type: application/json\nContent-Length: %d\nConnection: close\n" % len(api), api),
    request(b"POST /forms/event/explain HTTP/1.1\nHost: x\nContent-Type: application/json\nContent-Length: %d\nConnection: close\n" % len(api), api),
    request(b"POST /forms/event HTTP/1.1\nHost: x\nContent-Type: application/json\nContent-Length: %d\nConnection: close\n" % len(nested), nested),
    request(b"POST /forms/others HTTP/1.1\nHost: x\nContent-Type: multipart/form-data; boundary=XX\nAccept: application/json\n"
            b"Cookie: fw_csrf=%s\nContent-Length: %d\nConnection: close\n" % (nonce.encode(), len(upload)), upload),
    request(b"POST /forms/event HTTP/1.1\nHost: x\nContent-Type: application/x-www-form-urlencoded\nContent-Length: 2000000\nConnection: close\n", b"x" * 100000),
    request(b"POST /forms/event HTTP/1.1\nHost: x\nContent-Type: application/json\nTransfer-Encoding: chunked\nConnection: close\n", b"5\r\n{\"a\":\r\n2\r\n1}\r\n0\r\n\r\n"),
    request(b"GET /forms/event?" + b"a" * 3000 + b" HTTP/1.1\nHost: x\n" + (b"X-Filler: " + b"v" * 8000 + b"\n") * 8 + b"Connection: close\n"),
    request(b"GET /forms/event HTTP/1.1\nHost: x\nAccept-Language: zh-CN,zh;q=0.9\nCookie: fw_csrf=AAAAAAAAAAAAAAAAAAAAAA\nConnection: close\n"),
    request(b"GET /forms/nothing.json HTTP/1.1\nHost: x\nConnection: close\n"),
    request(b"PUT /forms/event HTTP/1.1\nHost: x\nContent-Length: 0\nConnection: close\n"),
]
cut_short = request(b"POST /forms/event HTTP/1.1\nHost: x\nContent-Type: application/json\nContent-Length: 50\n", b'{"ti')

def send(raw, cut=False):
    connection = socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        connection.sendall(raw)
        if cut:
            # Closed right after the last bytes: libmicrohttpd 0.9.75 alone would miss this close and
            # hold the connection until --timeout (docs/operations.md, "Limits and hardening").
            return
        while connection.recv(65536):
            pass
    except OSError:
        pass  # a refusal may close before the whole request is sent
    finally:
        connection.close()

sent, end = 0, time.monotonic() + seconds
while time.monotonic() < end:
    if random.random() < 0.05:
        send(cut_short, cut=True)
    else:
        send(random.choice(requests))
    sent += 1
print(sent)
PY

export SUBMIT_BODY=$tmp/event.body SUBMIT_HEADERS="Cookie: fw_csrf=$EVENT_NONCE"
base=http://$HOST:$PORT
access_log=$tmp/formwright.log
store=(--store none)
[[ $SUBMISSIONS == on ]] && store=(--submissions "$tmp/submissions")
# Appended to, so the log can be emptied between rounds while the server writes it.
FORMWRIGHT_SECRET=$FORMWRIGHT_SECRET "$FORMWRIGHT_BIN" serve --host "$HOST" --port "$PORT" --public "$tmp/public" \
    --forms "$FORMS" --threads "$THREADS" --explain "${store[@]}" >>"$access_log" 2>&1 &
server=$!
for ((i = 0; i < 200; i++)); do
    curl -fs -o /dev/null "$base/healthz" && break
    kill -0 "$server" 2>/dev/null || die "formwright stopped at start: $(tail -3 "$access_log")"
    sleep 0.1
done
curl -fs -o /dev/null "$base/healthz" || die "formwright did not answer $base/healthz"

rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$server/status"; }
descriptors() { find "/proc/$server/fd" -mindepth 1 -maxdepth 1 | wc -l; }
fds_at_start=$(descriptors)
log "formwright (pid $server): $(rss_kib) KiB resident, $fds_at_start descriptors at start"
: >"$access_log"

printf '\n== soak: %d rounds of %d s, %d server threads; after each round:\n' "$ROUNDS" "$DURATION" "$THREADS"
printf '   %5s %10s %8s %8s %8s %8s %8s %12s %5s %8s %6s\n' round requests 2xx/3xx 4xx 5xx other 'RSS KiB' \
    'vs round 1' fds kept files
total=0
for ((round = 1; round <= ROUNDS; round++)); do
    log "round $round/$ROUNDS"
    pids=()
    wrk -t1 -c8 -d"${DURATION}s" "$base/forms/event" >/dev/null &
    pids+=($!)
    wrk -t1 -c8 -d"${DURATION}s" -s "$here/post.lua" "$base/forms/event" >/dev/null &
    pids+=($!)
    SUBMIT_BODY=$tmp/invalid.body SUBMIT_HEADERS=$'Cookie: fw_csrf='"$EVENT_NONCE"$'\nAccept: text/html' \
        wrk -t1 -c4 -d"${DURATION}s" -s "$here/post.lua" "$base/forms/event" >/dev/null &
    pids+=($!)
    wrk -t1 -c4 -d"${DURATION}s" "$base/static/page.html" >/dev/null &
    pids+=($!)
    wrk -t1 -c2 -d"${DURATION}s" "$base/no/such/page" >/dev/null &
    pids+=($!)
    python3 "$tmp/abuse.py" "$PORT" "$DURATION" "$EVENT_NONCE" >"$tmp/abuse.count" &
    pids+=($!)
    for pid in "${pids[@]}"; do wait "$pid" || die "a load generator failed in round $round"; done
    kill -0 "$server" 2>/dev/null || die "formwright stopped in round $round: $(tail -5 "$access_log")"
    # Closed connections leave the server's tables a moment after the clients exit.
    sleep 1
    read -r requests ok client server_errors other < <(awk '
        / formwright\.access: / {
            n++
            status = $6
            if (status ~ /^[23]/) ok++; else if (status ~ /^4/) c++; else if (status ~ /^5/) s++; else o++
        }
        END { printf "%d %d %d %d %d\n", n, ok, c, s, o }' "$access_log")
    ((requests > 0)) || die "round $round: no request reached the server"
    if ((server_errors > 0)); then
        log "round $round: $server_errors answers were 5xx:"
        grep -E ' formwright\.access: \S+ \S+ 5[0-9][0-9] ' "$access_log" | head -5 >&2 || true
    fi
    : >"$access_log"
    total=$((total + requests))
    rss=$(rss_kib)
    fds=$(descriptors)
    if ((round == 1)); then
        first_rss=$rss
        first_total=$total
    fi
    kept=- files=-
    if [[ $SUBMISSIONS == on ]]; then
        kept=$(cat "$tmp/submissions"/*.jsonl 2>/dev/null | wc -l)
        files=$(find "$tmp/submissions" -mindepth 2 -type f | wc -l)
    fi
    printf '   %5d %10d %8d %8d %8d %8d %8d %+12d %5d %8s %6s\n' "$round" "$requests" "$ok" "$client" \
        "$server_errors" "$other" "$rss" $((rss - first_rss)) "$fds" "$kept" "$files"
done
awk -v growth=$((rss - first_rss)) -v requests=$((total - first_total)) -v fds="$fds" -v start="$fds_at_start" 'BEGIN {
    printf "   after round 1: %+d KiB over %d requests (%+.1f KiB per million); descriptors %d at start, %d at the end\n",
        growth, requests, growth * 1e6 / requests, start, fds }'
printf '   other: requests answered with no status (a client gone mid-request, or libmicrohttpd refusing the request itself)\n'
printf '   kept, files: lines and uploaded files in the submissions folder so far (SUBMISSIONS=on)\n'

# The server should stop as it does after any day's work: drained, exit status 0.
kill -TERM "$server"
status=0
wait "$server" || status=$?
server=
stopped=$(grep -o 'stopped drained=[a-z]*' "$access_log" || true)
printf '   stop: exit status %d, %s\n' "$status" "${stopped:-no "stopped" line in the log}"
((status == 0)) || die "formwright exited with status $status on SIGTERM"
