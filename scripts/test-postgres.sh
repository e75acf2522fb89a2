#!/usr/bin/env bash
# A throwaway PostgreSQL server for benchmarks and the container test (the Swift tests make theirs in
# Tests/TestProcesses): a cluster made with initdb in FOLDER, on a free loopback port, trust
# authentication for its one user, formwright, and one database, formwright.
#
#   url=$(scripts/test-postgres.sh start FOLDER)   # prints postgres://formwright@127.0.0.1:PORT/formwright
#   scripts/test-postgres.sh stop FOLDER           # stops it and removes FOLDER
#
# LISTEN (127.0.0.1) is the address it listens on: the container test gives the host's address a
# container reaches. FOLDER's parents must be open to the postgres user (mktemp -d makes a folder
# only its owner enters: chmod 755 it). As root, the server's programs run as the postgres user, since they refuse root.
set -euo pipefail

command=${1:?start or stop}
folder=${2:?a folder}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[[ -x $bin/initdb ]] || { echo "PostgreSQL is not installed: scripts/install-deps.sh --test" >&2; exit 1; }

as_postgres() {
    if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case $command in
start)
    mkdir -p "$folder"
    if [[ $(id -u) -eq 0 ]]; then
        chown postgres "$folder"
        runuser -u postgres -- test -x "$folder" || { echo "the postgres user cannot reach $folder" >&2; exit 1; }
    fi
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_postgres "$bin/initdb" -D "$folder/data" -U formwright --auth=trust --encoding=UTF8 --locale=C >"$folder/initdb.log" 2>&1
    as_postgres "$bin/pg_ctl" -D "$folder/data" -l "$folder/log" -w -t 60 \
        -o "-p $port -k $folder -c listen_addresses=${LISTEN:-127.0.0.1} -c max_connections=200" start >/dev/null
    as_postgres "$bin/psql" -h "$folder" -p "$port" -U formwright -d postgres -q -c "CREATE DATABASE formwright"
    echo "$port" >"$folder/port"
    echo "postgres://formwright@127.0.0.1:$port/formwright"
    ;;
stop)
    [[ -d $folder/data ]] && as_postgres "$bin/pg_ctl" -D "$folder/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$folder"
    ;;
*)
    echo "usage: $0 start|stop FOLDER" >&2
    exit 2
    ;;
esac
