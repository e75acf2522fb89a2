#!/usr/bin/env bash
# Installs what the browser tests need and is missing, on Debian 12: Chromium and its driver, a Java runtime for
# the Nu HTML checker, and a virtualenv at .build/browser-venv with the pinned Python packages.
# Idempotent: when everything is there it installs nothing and asks no registry.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."

packages=(chromium chromium-driver python3-venv)
# Any Java runtime runs vnu.jar; Debian's default one only when there is none.
command -v java >/dev/null 2>&1 || packages+=(default-jre-headless)

missing=()
for package in "${packages[@]}"; do
    [[ "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null)" == "install ok installed" ]] || missing+=("$package")
done
if ((${#missing[@]})); then
    echo "installing: ${missing[*]}"
    sudo=""
    [[ $(id -u) -ne 0 ]] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

venv=.build/browser-venv
requirements=Tests/Browser/requirements.txt
# axe-selenium-python 3.0.0 bundles axe-core 4.10.2; 2.1.6, the last release that admits Python 3.11 (Debian 12's),
# bundles axe-core 3.1.1 from 2018, which predates most of today's ARIA rules. 3.0.0's code is one plain module
# that runs on 3.11; only its metadata asks for 3.12, so it is installed without its dependencies (pinned above)
# and without the Python version check.
axe=axe-selenium-python==3.0.0
stamp="$venv/.formwright-installed"
want="$(cat "$requirements" "$here/install.sh" | sha256sum | cut -d' ' -f1)"

if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
    exit 0
fi
echo "setting up $venv"
# Debian's python3 (the one python3-venv serves), whatever else is first on PATH.
python=/usr/bin/python3
[[ -x "$python" ]] || python="$(command -v python3)"
[[ -x "$venv/bin/python" ]] || "$python" -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$requirements"
"$venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps --ignore-requires-python "$axe"
echo "$want" >"$stamp"
