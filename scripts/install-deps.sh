#!/usr/bin/env bash
# Installs what Formwright needs and is missing, on Debian or Ubuntu. Idempotent: installs nothing
# when everything is there. `--test` adds what the test suite needs.
set -euo pipefail

want_test=false
[[ "${1:-}" == "--test" ]] && want_test=true

packages=(libmicrohttpd-dev libssl-dev libsqlite3-dev libpq-dev libcurl4-openssl-dev pkg-config)
$want_test && packages+=(curl python3 python3-aiosmtpd nodejs postgresql)

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
    echo "installing: ${missing[*]}"
    sudo=""
    [[ $(id -u) -ne 0 ]] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
    echo "Swift 6 is not on PATH. Install a Swift 6 toolchain (https://www.swift.org/install/linux/)," >&2
    echo "or put an existing one on PATH (for example /opt/swift/usr/bin)." >&2
    exit 1
fi
