#!/usr/bin/env bash
# bench/costly.sh: what the costliest submissions a form may ask for cost, and what they cost everyone
# else. One release server serves a form whose `name` row has a pattern near the program limit
# (`^(\w+\s?){1,250}$`) and whose `note` row is hidden by a MATCHES of nested stars over `name`.
#
# Prints, for values of 1 KB to 1 MB (one long word, which keeps every thread of the pattern alive):
# the median and worst answer time of ROUNDS posts, and their status. Then the median, 90th percentile
# and worst time of GET /healthz while eight clients post 1 MB values without pause. Last, the time
# `formwright check` takes over a 3.9 MB descriptor holding one condition of 280,000 terms.
#
# Knobs: ROUNDS (5), PORT (18793), THREADS (2), SWIFT, FORMWRIGHT_BIN (else a release build).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
ROUNDS=${ROUNDS:-5}
PORT=${PORT:-18793}
THREADS=${THREADS:-2}
SWIFT=${SWIFT:-swift}
FORMWRIGHT_BIN=${FORMWRIGHT_BIN:-}

if [[ -z $FORMWRIGHT_BIN ]]; then
    SWIFT=$SWIFT "$repo/scripts/build-release" --product formwright >&2
    FORMWRIGHT_BIN=$(cd "$repo" && "$SWIFT" build -c release --show-bin-path)/formwright
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/formwright-costly.XXXXXX")
server=
cleanup() {
    [[ -n $server ]] && kill -TERM "$server" 2>/dev/null && wait "$server" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT

mkdir -p "$tmp/forms" "$tmp/large"
cat >"$tmp/forms/costly.yaml" <<'YAML'
id: costly
title: Costly
sections:
  - rows:
      - { tag: name, type: text, title: Name, validators: [{ kind: regex, pattern: '^(\w+\s?){1,250}$' }] }
      - { tag: note, type: text, title: Note, hidden: "$name MATCHES '((((a*)*)*)*){20}b'" }
YAML
"$FORMWRIGHT_BIN" serve --host 127.0.0.1 --port "$PORT" --threads "$THREADS" --forms "$tmp/forms" \
    --public "$repo/Public" --no-access-log --store none >"$tmp/server.log" 2>&1 &
server=$!
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.1; done

python3 - "$PORT" "$ROUNDS" <<'PY'
import http.client, json, statistics, sys, threading, time
port, rounds = int(sys.argv[1]), int(sys.argv[2])

def post(size):
    body = json.dumps({"name": "a" * size}).encode()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    start = time.perf_counter()
    connection.request("POST", "/forms/costly", body=body,
                       headers={"Content-Type": "application/json", "Accept": "application/json"})
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.status, (time.perf_counter() - start) * 1000

print("value      status  median ms  worst ms")
for size in (1_000, 10_000, 100_000, 1_000_000):
    runs = [post(size) for _ in range(rounds)]
    times = [t for _, t in runs]
    print(f"{size:>9,}  {runs[0][0]:>6}  {statistics.median(times):>9.1f}  {max(times):>8.1f}")

stop = time.time() + 6
def poster():
    while time.time() < stop:
        post(1_000_000)
posters = [threading.Thread(target=poster) for _ in range(8)]
for thread in posters:
    thread.start()
time.sleep(0.5)
health = []
while time.time() < stop - 0.3:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    start = time.perf_counter()
    connection.request("GET", "/healthz")
    connection.getresponse().read()
    health.append((time.perf_counter() - start) * 1000)
    connection.close()
    time.sleep(0.02)
for thread in posters:
    thread.join()
health.sort()
print(f"/healthz under 8 posting clients: {len(health)} requests, median {statistics.median(health):.1f} ms, "
      f"p90 {health[int(len(health) * 0.9)]:.1f} ms, worst {health[-1]:.1f} ms")
PY

python3 - "$tmp/large/large.json" <<'PY'
import json, sys
condition = " AND ".join(["$t == 'x'"] * 280_000)
form = {"id": "large", "sections": [{"rows": [{"tag": "t", "type": "text"},
                                              {"tag": "u", "type": "text", "hidden": condition}]}]}
json.dump(form, open(sys.argv[1], "w"))
PY
start=$(date +%s.%N)
"$FORMWRIGHT_BIN" check "$tmp/large" >/dev/null
end=$(date +%s.%N)
printf 'check of a %s-byte descriptor (one condition of 280,000 terms): %.2f s\n' \
    "$(stat -c %s "$tmp/large/large.json")" "$(echo "$end - $start" | bc)"
