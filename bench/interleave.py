#!/usr/bin/env python3
"""bench/interleave.py: requests/s of several running servers, measured in short rounds taken in a new
random order each round, so that a slow spell of a shared machine weighs on all of them alike.

    interleave.py [--rounds N] [--duration S] [--connections C] NAME=URL ... BASELINE=URL

The last server is the baseline. Each round runs `wrk -t1 -cC -dSs` once against every server; the
report gives each server's median req/s, its ratio of medians to the baseline, and the median of its
per-round ratios with a 95% bootstrap interval: a figure whose interval lies on one side of a target
says which side the server is on; one whose interval spans it cannot tell. Every pair of servers other
than the baseline is compared the same way. Loopback only: every URL must be on 127.0.0.1.
"""
import argparse
import random
import re
import statistics
import subprocess
import sys


def requests_per_second(url, duration, connections):
    out = subprocess.run(
        ["wrk", "-t1", f"-c{connections}", f"-d{duration}s", url],
        capture_output=True, text=True, timeout=duration + 30, check=True,
    ).stdout
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if bad:
        sys.exit(f"interleave: {url} answered {bad.group(1)} requests with neither 2xx nor 3xx")
    found = re.search(r"^Requests/sec:\s+([\d.]+)", out, re.M)
    if not found:
        sys.exit(f"interleave: no Requests/sec in wrk's report for {url}:\n{out}")
    return float(found.group(1))


def interval(ratios, rng):
    """The median of `ratios` and a 95% bootstrap interval around it."""
    medians = sorted(statistics.median(rng.choices(ratios, k=len(ratios))) for _ in range(4000))
    return statistics.median(ratios), medians[100], medians[3899]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--duration", type=int, default=1)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("servers", nargs="+", metavar="NAME=URL")
    args = parser.parse_args()
    servers = [spec.split("=", 1) for spec in args.servers]
    if len(servers) < 2 or any(len(spec) != 2 for spec in servers):
        parser.error("give at least two servers as NAME=URL, the baseline last")
    if any(not url.startswith("http://127.0.0.1:") for _, url in servers):
        parser.error("every URL must be on 127.0.0.1")
    rng = random.Random(2026)
    for _, url in servers:  # warm-up
        requests_per_second(url, 1, args.connections)
    rounds = []
    for number in range(args.rounds):
        order = list(range(len(servers)))
        rng.shuffle(order)
        measured = {index: requests_per_second(servers[index][1], args.duration, args.connections) for index in order}
        rounds.append([measured[index] for index in range(len(servers))])
        print(f"interleave: round {number + 1}/{args.rounds}", file=sys.stderr)
    names = [name for name, _ in servers]
    medians = [statistics.median(row[index] for row in rounds) for index in range(len(names))]
    print(f"{args.rounds} rounds of {args.duration}s, wrk -t1 -c{args.connections}, order shuffled each round")
    print("   " + "   ".join(f"{name} {median:.0f} req/s" for name, median in zip(names, medians)))
    base = len(names) - 1
    pairs = [(index, base) for index in range(base)]
    pairs += [(later, earlier) for earlier in range(base) for later in range(earlier + 1, base)]
    for index, against in pairs:
        ratios = [row[index] / row[against] for row in rounds]
        median, low, high = interval(ratios, rng)
        print(
            f"{names[index]}/{names[against]}: ratio of medians {100 * medians[index] / medians[against]:.1f}%, "
            f"paired {100 * median:.1f}% (95% interval {100 * low:.1f}-{100 * high:.1f}%)"
        )


if __name__ == "__main__":
    main()
