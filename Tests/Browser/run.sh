#!/usr/bin/env bash
# Runs the browser tests: installs what is missing, builds the debug formwright-examples (the
# command line with the examples' Swift: the account form's stored records) unless FORMWRIGHT_BIN
# names a binary, then pytest. Arguments go to pytest (for example -k multivalued). Screenshots land in
# Tests/Browser/screenshots/.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PATH:/opt/swift/usr/bin"

Tests/Browser/install.sh

if [[ -z "${FORMWRIGHT_BIN:-}" ]]; then
    # swift-locked serialises builds on a shared machine; plain swift elsewhere.
    swift=swift
    command -v swift-locked >/dev/null 2>&1 && swift=swift-locked
    "$swift" build --product formwright-examples
fi

# The whole run is bounded: pytest gets SIGTERM after 20 minutes (conftest.py turns it into an interrupt, so the
# server and the browsers are stopped), and SIGKILL 30 s later.
exec timeout --kill-after=30 1200 .build/browser-venv/bin/python -m pytest Tests/Browser "$@"
