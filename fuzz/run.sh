#!/bin/sh
# Builds the libFuzzer target over the FormPredicate sources and runs it.
#   fuzz/run.sh                 1,000,000 executions (RUNS=... to change), inputs up to 256 bytes (MAX_LEN=... to change)
# Crashes are written to fuzz/artifacts/; the growing corpus to fuzz/corpus/.
set -eu
cd "$(dirname "$0")"
mkdir -p .build seeds corpus artifacts

# Seed corpus: every predicate of the conformance cases (Tests/Predicates), one file each.
python3 - <<'PY'
import hashlib, json, os
for line in open("../Tests/Predicates/cases.jsonl", encoding="utf-8"):
    if line.strip():
        text = json.loads(line)["predicate"].encode("utf-8")
        name = hashlib.sha1(text).hexdigest()[:16]
        with open(os.path.join("seeds", name), "wb") as f:
            f.write(text)
PY

# Serialise with the other Swift builds on this machine.
flock /tmp/swift-build.lock swiftc -sanitize=fuzzer,address -parse-as-library -O \
    -module-name FormPredicateFuzz \
    $(find ../Sources/FormPredicate -name '*.swift' | sort) FuzzEntry.swift \
    -o .build/predicate-fuzz

# The Swift runtime's backtracer fights ASan's signal handling; libFuzzer's own report is enough.
export SWIFT_BACKTRACE=enable=no
# -timeout turns a hang into a reported failure; -rss_limit_mb does the same for runaway memory.
nice ./.build/predicate-fuzz -runs="${RUNS:-1000000}" -max_len="${MAX_LEN:-256}" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix=artifacts/ -print_final_stats=1 corpus seeds
