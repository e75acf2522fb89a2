#!/usr/bin/env bash
# bench/submit-event.sh: the submission benchmark of issue 5 — POST /forms/event (the calendar event
# form: 12 rows, one hidden condition, six validators), valid, urlencoded, Accept: application/json,
# against the C ceiling reading the same body. Extra knobs (ROUNDS, STAT, ...) pass through to run.sh.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=bench/event-body.sh
source "$here/event-body.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

write_event_body "$work/event.body"
SCENARIOS=submit SUBMIT_PATH=/forms/event SUBMIT_BODY="$work/event.body" \
    SUBMIT_HEADERS="Cookie: fw_csrf=$EVENT_NONCE" "$here/run.sh"
