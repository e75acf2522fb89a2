# shellcheck shell=bash
# bench/event-body.sh: sourced by submit-event.sh and instructions.sh.
#
# A browser post needs a CSRF token, so the server gets a known FORMWRIGHT_SECRET and the body the
# token that secret gives for a fixed cookie nonce, computed here exactly as CSRFGuard does:
# base64url(HMAC-SHA256(SHA256(secret), "csrf\0event\0" + nonce)).

export FORMWRIGHT_SECRET=bench-secret
# The cookie a browser sends with the body below: `Cookie: fw_csrf=$EVENT_NONCE`.
EVENT_NONCE=AAAAAAAAAAAAAAAAAAAAAA

# write_event_body FILE: a valid calendar event (12 rows, one hidden condition, six validators), urlencoded.
write_event_body() {
    local token
    token=$(python3 - "$FORMWRIGHT_SECRET" "$EVENT_NONCE" <<'PY'
import base64, hashlib, hmac, sys
secret, nonce = sys.argv[1], sys.argv[2]
key = hashlib.sha256(secret.encode()).digest()
mac = hmac.new(key, b"csrf\0event\0" + nonce.encode(), hashlib.sha256).digest()
print(base64.urlsafe_b64encode(mac).decode().rstrip("="))
PY
    ) || return 1
    printf '_csrf=%s&title=Team+lunch&location=Canteen&all-day=on&starts=2026-11-23T12%%3A00&ends=2026-11-23T13%%3A00&repeat=weekly&alert=15m&second-alert=5m&url=https%%3A%%2F%%2Fexample.com%%2Flunch&email=team%%40example.com&guests=8&notes=Bring+cake' \
        "$token" >"$1"
}
