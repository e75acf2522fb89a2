#!/usr/bin/env python3
"""bench/codelines.py: how much code a request runs, from callgrind files written with --dump-instr=yes.

    codelines.py REQUESTS [--top N] FILE...
    codelines.py REQUESTS --functions OBJECT FILE...

Counts the 64-byte lines of code that hold an instruction run at least REQUESTS times while counting
was on, that is, once a request or more (instructions.sh counts REQUESTS identical requests), by
object (with the 4 KiB pages they lie on) and, with --top, by function. Prints "lines KiB" on its
first line, then the detail.

With --functions, prints instead the functions of OBJECT (a file name: formwright) that run once a
request or more, by their symbols, most lines first.

Why lines as well as instructions: between two requests the kernel's network path runs and evicts the
server's code from the first-level instruction cache, so each request reads its code in again, and a
line run once per request costs far more than an instruction in a loop (docs/benchmarks.md, "What a
request costs"; bench/code-footprint.sh measures it).
"""
import collections
import re
import subprocess
import sys

LINE = 64
PAGE = 4096


def hot_lines(path, requests, counts):
    """Adds to counts[(object, function)] the code lines of `path` run at least `requests` times."""
    names = {"ob": {}, "fn": {}}
    obj = fn = None
    address = 0
    pending_calls = 0  # a `calls=` line: the next cost line is the call's, its count is the call count
    runs = {}
    with open(path, errors="replace") as lines:
        for line in lines:
            named = re.match(r"(c?ob|c?fn|fl|fi|fe|cfi|cfl)=\((\d+)\)(?: (.*))?", line)
            if named:
                key, ident, name = named.groups()
                table = names["ob"] if key.endswith("ob") else names["fn"] if key.endswith("fn") else None
                if table is not None and name:
                    table[ident] = name.strip()
                if key == "ob":
                    obj = names["ob"].get(ident)
                elif key == "fn":
                    fn = names["fn"].get(ident)
                continue
            if line.startswith("calls="):
                pending_calls = int(line.split("=", 1)[1].split()[0])
                continue
            fields = line.split()
            if not fields or re.match(r"[a-z]+[:=]", line):
                continue
            position = fields[0]
            if position.startswith("0x"):
                address = int(position, 16)
            elif position[0] in "+-":
                address += int(position)
            elif position != "*":
                continue
            count = pending_calls if pending_calls else (int(fields[2]) if len(fields) > 2 else 0)
            pending_calls = 0
            key = (obj, fn, address)
            runs[key] = max(runs.get(key, 0), count)
    for (obj, fn, address), count in runs.items():
        if count >= requests:
            counts[(obj.rsplit("/", 1)[-1] if obj else "?", fn)].add(address // LINE)


def main():
    args = sys.argv[1:]
    top = 0
    if "--top" in args:
        at = args.index("--top")
        top = int(args[at + 1])
        del args[at : at + 2]
    functions_of = None
    if "--functions" in args:
        at = args.index("--functions")
        functions_of = args[at + 1]
        del args[at : at + 2]
    requests, files = int(args[0]), args[1:]
    counts = collections.defaultdict(set)
    for path in files:
        hot_lines(path, requests, counts)
    if functions_of:
        hot = [(fn, len(lines)) for (obj, fn), lines in counts.items() if obj == functions_of and fn]
        for fn, _ in sorted(hot, key=lambda item: (-item[1], item[0])):
            print(fn)
        return
    per_object = collections.defaultdict(set)
    for (obj, _), lines in counts.items():
        per_object[obj] |= lines
    total = sum(len(lines) for lines in per_object.values())
    print(f"{total} {total * LINE / 1024:.1f}")
    for obj, lines in sorted(per_object.items(), key=lambda item: -len(item[1])):
        # The 4 KiB pages the lines lie on: each is an entry in the TLB (scripts/build-release).
        pages = len({line * LINE // PAGE for line in lines})
        print(f"   {len(lines):6d}  {obj} (on {pages} pages)")
    if top:
        rows = sorted(counts.items(), key=lambda item: -len(item[1]))[:top]
        text = "\n".join(f"   {len(lines):6d}  {obj}: {fn}" for (obj, fn), lines in rows)
        try:
            text = subprocess.run(
                ["swift", "demangle", "--simplified"], input=text, capture_output=True, text=True, check=True
            ).stdout
        except (OSError, subprocess.CalledProcessError):
            pass  # mangled names, then
        print(text.rstrip())


if __name__ == "__main__":
    main()
