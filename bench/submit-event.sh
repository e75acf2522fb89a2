#!/usr/bin/env bash
# bench/submit-event.sh: the submission benchmark of issue 5 — POST /forms/event (the calendar event
# form: 12 rows, one hidden condition, six validators), valid, urlencoded, Accept: application/json,
# against the C ceiling reading the same body. Extra knobs (ROUNDS, STAT, ...) pass through to run.sh.
#
# A browser post needs a CSRF token, so the server gets a known FORMWRIGHT_SECRET and the body the
# token that secret gives for a fixed cookie nonce, computed here exactly as CSRFGuard does:
# base64url(HMAC-SHA256(SHA256(secret), "csrf\0event\0" + nonce)).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

export FORMWRIGHT_SECRET=bench-secret
nonce=AAAAAAAAAAAAAAAAAAAAAA
token=$(python3 - "$FORMWRIGHT_SECRET" "$nonce" <<'PY'
import base64, hashlib, hmac, sys
secret, nonce = sys.argv[1], sys.argv[2]
key = hashlib.sha256(secret.encode()).digest()
mac = hmac.new(key, b"csrf\0event\0" + nonce.encode(), hashlib.sha256).digest()
print(base64.urlsafe_b64encode(mac).decode().rstrip("="))
PY
)
printf '_csrf=%s&title=Team+lunch&location=Canteen&all-day=on&starts=2026-11-23T12%%3A00&ends=2026-11-23T13%%3A00&repeat=weekly&alert=15m&second-alert=5m&url=https%%3A%%2F%%2Fexample.com%%2Flunch&email=team%%40example.com&guests=8&notes=Bring+cake' \
    "$token" >"$work/event.body"

SCENARIOS=submit SUBMIT_PATH=/forms/event SUBMIT_BODY="$work/event.body" \
    SUBMIT_HEADERS="Cookie: fw_csrf=$nonce" "$here/run.sh"
