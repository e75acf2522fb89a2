#!/usr/bin/env bash
# bench/admin.sh: the operator's view (/admin) over ROWS stored submissions of the event form
# (1,000,000), spread over the last 90 days, on SQLite and on PostgreSQL (a throwaway server from
# scripts/test-postgres.sh). Reports the median time of RUNS requests (21) for the overview, the form's
# first page, a page deep in the table (by its cursor, 90% of the way down), the 90-day charts, and a
# search for a word no submission holds (a scan, reported, with no target). Target: the overview and
# the first page under 100 ms; the deep page no slower than the first.
#
#   bench/admin.sh                        # a release build
#   FORMWRIGHT_BIN=/tmp/formwright ROWS=200000 bench/admin.sh
#
# The rows are copies of one real submission (posted to the server first), each under an id of its own
# at its own time, loaded straight into the database; the counts the server keeps at each post are made
# for them as its migration makes them for submissions older than the counts. POSTGRES=off leaves
# PostgreSQL out. Needs curl, python3 and, for PostgreSQL, Debian's postgresql.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

rows=${ROWS:-1000000}
runs=${RUNS:-21}
bin=${FORMWRIGHT_BIN:-}
if [[ -z $bin ]]; then
    scripts/build-release --product formwright >&2
    bin="$(swift build -c release --show-bin-path)/formwright"
fi

work=$(mktemp -d)
chmod 755 "$work" # the postgres user makes its cluster in here
pid=
cleanup() {
    [[ -n $pid ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
    scripts/test-postgres.sh stop "$work/postgres" || true
    rm -rf "$work"
}
trap cleanup EXIT
port=18482
base="http://127.0.0.1:$port"

serve() {
    "$bin" serve --host 127.0.0.1 --port "$port" --no-access-log --store "$1" >"$work/serve.log" 2>&1 &
    pid=$!
    for _ in $(seq 100); do
        curl -sf "$base/healthz" >/dev/null && return
        sleep 0.1
    done
    echo "the server did not start: $(cat "$work/serve.log")" >&2
    exit 1
}
stop() {
    kill "$pid" && wait "$pid" 2>/dev/null || true
    pid=
}

# rows.tsv: ROWS copies of the kept submission, ids and times spread over the 90 days before now, in
# id order; counts.tsv: the kept counts those rows make (per hour, and per hour and answer).
make_rows() {
    python3 - "$rows" "$1" "$work" <<'PY'
import collections, datetime, json, os, sys, time
count, source, work = int(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3]
alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
def encode(value):
    return "".join(alphabet[(value >> (5 * (25 - i))) & 31] for i in range(26))
now = int(time.time() * 1000)
start = now - 90 * 86_400_000
step = 90 * 86_400_000 // count
answers = source["answers"].split("\n") if source["answers"] else []
hours = collections.Counter()
with open(f"{work}/rows.tsv", "w") as out:
    for n in range(count):
        at = start + n * step
        received = datetime.datetime.fromtimestamp(at / 1000, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:23] + "Z"
        value = at << 80 | int.from_bytes(os.urandom(10), "big")
        out.write("\t".join([encode(value), "event", received, source["http"], source["form"]]) + "\n")
        hours[at // 3_600_000] += 1
with open(f"{work}/counts.tsv", "w") as out:
    for hour, number in sorted(hours.items()):
        for answer in [""] + answers:
            out.write(f"event\t{answer}\t{hour}\t{number}\n")
PY
}

# time TARGET: the median seconds of `runs` requests for TARGET with the session's cookie.
median() {
    for _ in $(seq "$runs"); do
        curl -s -o /dev/null -w "%{time_total}\n" -b "$work/jar" "$base$1"
    done | sort -n | sed -n "$(((runs + 1) / 2))p"
}

measure() {
    local name=$1 store=$2 key token deep status
    key=$("$bin" keys create "admin-$RANDOM" --scope read,export --store "$store" | tail -1)
    serve "$store"
    rm -f "$work/jar"
    token=$(curl -s -c "$work/jar" "$base/admin/sign-in" | grep -o 'name="_csrf" value="[^"]*"' | sed 's/.*value="//; s/"$//')
    status=$(curl -s -o /dev/null -w "%{http_code}" -b "$work/jar" -c "$work/jar" --data-urlencode "_csrf=$token" \
        --data-urlencode "key=$key" --data-urlencode "next=/admin" "$base/admin/sign-in")
    [[ $status == 303 ]] || { echo "admin: $name: sign-in answered $status" >&2; exit 1; }
    deep=$(sed -n "$((rows / 10))p" "$work/rows.tsv" | cut -f1)
    # Each page once before timing: the first read of a cold file is the disk's figure, not the view's.
    for target in /admin /admin/forms/event "/admin/forms/event?cursor=$deep" "/admin/forms/event/charts?days=90"; do
        status=$(curl -s -o /dev/null -w "%{http_code}" -b "$work/jar" "$base$target")
        [[ $status == 200 ]] || { echo "admin: $name: $target answered $status" >&2; exit 1; }
    done
    printf 'admin: %s, %s submissions: overview %.1f ms, first page %.1f ms, deep page %.1f ms, charts (90 days) %.1f ms, search for a missing word %.0f ms\n' \
        "$name" "$rows" \
        "$(echo "$(median /admin) * 1000" | bc -l)" \
        "$(echo "$(median /admin/forms/event) * 1000" | bc -l)" \
        "$(echo "$(median "/admin/forms/event?cursor=$deep") * 1000" | bc -l)" \
        "$(echo "$(median '/admin/forms/event/charts?days=90') * 1000" | bc -l)" \
        "$(echo "$(runs=3 median '/admin/forms/event?q=zzzz-nowhere') * 1000" | bc -l)"
    stop
}

# One real submission, kept by the server, whose columns every row copies.
database=$work/formwright.db
serve "sqlite:$database"
curl -sf -H 'Content-Type: application/json' -H 'Accept: application/json' \
    -d '{"title":"Team lunch","starts":"2026-11-23T12:00","ends":"2026-11-23T13:00","alert":"15m","guests":8}' \
    "$base/forms/event" >/dev/null
stop
source=$(python3 -c '
import json, sqlite3, sys
row = sqlite3.connect(sys.argv[1]).execute("select received, http_parameters, form_values, answers from submissions").fetchone()
print(json.dumps({"received": row[0], "http": row[1], "form": row[2], "answers": row[3]}))' "$database")
make_rows "$source"
python3 - "$database" "$work" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
work = sys.argv[2]
db.execute("delete from submissions")
db.execute("delete from submission_counts")
with open(f"{work}/rows.tsv") as rows:
    db.executemany("insert into submissions (id, form, received, http_parameters, form_values) values (?, ?, ?, ?, ?)",
                   (line.rstrip("\n").split("\t") for line in rows))
with open(f"{work}/counts.tsv") as counts:
    db.executemany("insert into submission_counts (form, answer, hour, count) values (?, ?, ?, ?)",
                   (line.rstrip("\n").split("\t") for line in counts))
db.commit()
PY
measure sqlite "sqlite:$database"

if [[ ${POSTGRES:-on} != off ]]; then
    url=$(scripts/test-postgres.sh start "$work/postgres")
    serve "$url" # migrates the new database
    stop
    psql "$url" -q -c "\\copy submissions (id, form, received, http_parameters, form_values) from '$work/rows.tsv'"
    psql "$url" -q -c "\\copy submission_counts (form, answer, hour, count) from '$work/counts.tsv'" -c "ANALYZE"
    measure postgres "$url"
fi
