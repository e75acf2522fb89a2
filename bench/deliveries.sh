#!/usr/bin/env bash
# bench/deliveries.sh: signed webhooks sent by `formwright serve` to a receiver on loopback that answers
# at once (bench/webhook-sink, on libmicrohttpd), on an SQLite store. Three figures:
#
#   1. latency: LATENCY posts one at a time; for each, the time from the post's answer to the webhook's
#      arrival at the receiver (median and 95th percentile);
#   2. burst: BURST submissions posted as fast as CONNECTIONS clients can (wrk), then delivered:
#      deliveries a second, from the burst's start to the last arrival (target: 2,000 a second);
#   3. cost: durable submissions a second with and without deliveries running, side by side in rotating
#      rounds, each round once the last one's deliveries have arrived (target: not more than 10 % lower
#      with them), and the deliveries sent meanwhile.
#
#   bench/deliveries.sh                      # a release build
#
# Knobs: LATENCY (200), BURST (10000), ROUNDS (5), DURATION (5 s a round), CONNECTIONS (32),
# FORMWRIGHT_BIN. Needs wrk, curl and python3.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

latency=${LATENCY:-200}
burst=${BURST:-10000}
rounds=${ROUNDS:-5}
duration=${DURATION:-5}
connections=${CONNECTIONS:-32}
bin=${FORMWRIGHT_BIN:-}
scripts/build-release --product webhook-sink >&2
[[ -z $bin ]] && scripts/build-release --product formwright >&2
release=$(swift build -c release --show-bin-path)
bin=${bin:-$release/formwright}

work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap cleanup EXIT

sink_port=18481
"$release/webhook-sink" $sink_port >"$work/sink.log" 2>&1 &
pids+=($!)
# The event form, delivering to the sink; the plain one beside it for the cost rounds.
mkdir "$work/delivering" "$work/plain"
cp Forms/event.json "$work/plain/"
python3 - "$work/delivering/event.json" $sink_port <<'EOF'
import json, sys
form = json.load(open("Forms/event.json"))
form["deliver"] = [{"webhook": f"http://127.0.0.1:{sys.argv[2]}/hooks", "secretEnv": "BENCH_HOOK_SECRET"}]
json.dump(form, open(sys.argv[1], "w"))
EOF
printf '%s' '{"title":"Team lunch","starts":"2026-11-23T12:00","ends":"2026-11-23T13:00","alert":"15m","second-alert":"5m","guests":8}' \
    >"$work/event.json"
export BENCH_HOOK_SECRET="whsec_$(head -c 32 /dev/urandom | base64)"

# start NAME PORT FORMS: a server on its own SQLite store, waited for until /healthz answers.
start() {
    "$bin" serve --host 127.0.0.1 --port "$2" --no-access-log --forms "$3" --store "sqlite:$work/$1.db" \
        >"$work/$1.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 100); do
        curl -sf "http://127.0.0.1:$2/healthz" >/dev/null && return
        sleep 0.1
    done
    echo "$1 did not start: $(cat "$work/$1.log")" >&2
    exit 1
}
# sink_count: deliveries the sink has received.
sink_count() { curl -sf "http://127.0.0.1:$sink_port/stats" | python3 -c "import json,sys; print(json.load(sys.stdin)['count'])"; }
# drained: waits until no delivery has arrived for a second (what an earlier round left is sent).
drained() {
    local last now
    last=$(sink_count)
    while sleep 1; now=$(sink_count); ((now != last)); do last=$now; done
}

# 1. Latency, on a server of its own.
start latency 18482 "$work/delivering"
python3 - "$latency" 18482 "$work/event.json" "$work/answers.json" <<'EOF'
import http.client, json, sys, time
count, port, body = int(sys.argv[1]), int(sys.argv[2]), open(sys.argv[3], "rb").read()
answers = {}
connection = http.client.HTTPConnection("127.0.0.1", port)
for _ in range(count):
    connection.request("POST", "/forms/event", body, {"Content-Type": "application/json", "Accept": "application/json"})
    answer = connection.getresponse().read()
    answers[json.loads(answer)["id"]] = time.time() * 1000
    time.sleep(0.01)  # one at a time: each delivery alone in the pipe
json.dump(answers, open(sys.argv[4], "w"))
EOF
for _ in $(seq 100); do (($(sink_count) >= latency)) && break; sleep 0.1; done
curl -sf "http://127.0.0.1:$sink_port/arrivals" >"$work/arrivals.json"
python3 - "$work/answers.json" "$work/arrivals.json" <<'EOF'
import json, statistics, sys
answers, arrivals = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
delays = sorted(arrivals[f"msg_{id}_1_0"] - at for id, at in answers.items() if f"msg_{id}_1_0" in arrivals)
assert len(delays) == len(answers), f"{len(answers) - len(delays)} webhooks did not arrive"
print(f"deliveries: latency from the post's answer to the webhook's arrival: median {statistics.median(delays):.1f} ms, "
      f"95th percentile {delays[int(len(delays) * 0.95)]:.1f} ms ({len(delays)} posts one at a time)")
EOF

# 2. A burst: wrk posts for as long as it takes to answer BURST (a rate probe first), then the sink counts.
start burst 18483 "$work/delivering"
before=$(sink_count)
started=$(python3 -c "import time; print(time.time() * 1000)")
posted=0
while ((posted < burst)); do
    output=$(SUBMIT_BODY="$work/event.json" SUBMIT_HEADERS="Content-Type: application/json" \
        wrk -t1 -c"$connections" -d1s -s bench/post.lua "http://127.0.0.1:18483/forms/event")
    grep -q "Non-2xx" <<<"$output" && { echo "burst: $(grep Non-2xx <<<"$output")" >&2; exit 1; }
    posted=$((posted + $(awk '/requests in/ {print $1}' <<<"$output")))
done
for _ in $(seq 600); do (($(sink_count) - before >= posted)) && break; sleep 0.1; done
curl -sf "http://127.0.0.1:$sink_port/stats" >"$work/stats.json"
python3 - "$work/stats.json" "$started" "$posted" "$before" <<'EOF'
import json, sys
stats, started, posted, before = json.load(open(sys.argv[1])), float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
delivered = stats["count"] - before
seconds = (stats["last"] - started) / 1000
print(f"deliveries: burst of {posted:,} submissions answered (wrk counts no answer it cut at its end): {delivered:,} "
      f"webhooks delivered in {seconds:.2f} s from the burst's start: {delivered / seconds:,.0f} deliveries/s, "
      f"{stats['repeats']} sent twice")
sys.exit(0 if delivered >= posted else 1)
EOF

# 3. The cost: durable submissions a second with deliveries running, and without, in rotating rounds.
start plain 18484 "$work/plain"
start delivering 18485 "$work/delivering"
declare -A rates
sending=""
for ((r = 1; r <= rounds; r++)); do
    order=(plain delivering)
    ((r % 2 == 0)) && order=(delivering plain)
    for name in "${order[@]}"; do
        port=18484
        [[ $name == delivering ]] && port=18485
        drained
        before=$(sink_count)
        output=$(SUBMIT_BODY="$work/event.json" SUBMIT_HEADERS="Content-Type: application/json" \
            wrk -t1 -c"$connections" -d"${duration}s" -s bench/post.lua "http://127.0.0.1:$port/forms/event")
        grep -q "Non-2xx" <<<"$output" && { echo "$name: $(grep Non-2xx <<<"$output")" >&2; exit 1; }
        rate=$(awk '/Requests\/sec/ {print $2}' <<<"$output")
        rates[$name]+="$rate "
        sent=$((($(sink_count) - before) / duration))
        [[ $name == delivering ]] && sending+="$sent "
        echo "round $r $name: $rate req/s, $sent deliveries/s meanwhile" >&2
    done
done
python3 - "${rates[plain]}" "${rates[delivering]}" "$sending" <<'EOF'
import statistics, sys
plain, delivering, sending = (statistics.median(float(x) for x in arg.split()) for arg in sys.argv[1:4])
# Each round beside the one next to it: the machine's own drift from round to round cancels out.
pairs = sorted(float(d) / float(p) for p, d in zip(sys.argv[1].split(), sys.argv[2].split()))
print(f"deliveries: durable submissions/s on SQLite: {plain:,.0f} without deliveries, {delivering:,.0f} with a webhook each "
      f"({100 * delivering / plain:.1f}%; paired rounds: median {100 * statistics.median(pairs):.1f}%, "
      f"{100 * pairs[0]:.0f}-{100 * pairs[-1]:.0f}%), while {sending:,.0f} deliveries/s were sent")
EOF
