#!/usr/bin/env python3
"""Runs the predicate corpus through an implementation and reports what it got wrong.

Each line of the corpus is one case: a predicate, the variables it is evaluated against, and the
expected answer, "true", "false" or "error". The implementation is a command that reads one JSON
request per line on standard input, {"predicate": ..., "vars": {...}}, and writes one JSON answer
per line, in the same order: {"result": true}, {"result": false} or {"error": "..."}.

    python3 Tests/Predicates/check.py --impl ".build/debug/formwright predicate" Tests/Predicates/cases.jsonl

The last line printed is "N passed, M failed"; the exit status is 1 when any case failed.
"""
import argparse
import json
import shlex
import subprocess
import sys
from collections import Counter


def verdict(line):
    """The answer line as the corpus spells expectations: "true", "false" or "error"."""
    try:
        answer = json.loads(line)
    except ValueError:
        return "unreadable answer"
    if "error" in answer:
        return "error"
    if answer.get("result") is True:
        return "true"
    if answer.get("result") is False:
        return "false"
    return "unreadable answer"


def main():
    parser = argparse.ArgumentParser(description="Run the predicate corpus through an implementation.")
    parser.add_argument("--impl", required=True, help='command line, e.g. "formwright predicate"')
    parser.add_argument("--show", type=int, default=20, help="failures to print (default 20)")
    parser.add_argument("corpus", help="the cases, one JSON object a line")
    args = parser.parse_args()

    with open(args.corpus, encoding="utf-8") as file:
        cases = [json.loads(line) for line in file if line.strip()]

    # All requests go in one run; answers come back one per line, in order.
    requests = "".join(json.dumps({"predicate": c["predicate"], "vars": c["vars"]}, ensure_ascii=False) + "\n"
                       for c in cases)
    run = subprocess.run(shlex.split(args.impl), input=requests, capture_output=True, encoding="utf-8")
    answers = [line for line in run.stdout.splitlines() if line.strip()]
    if len(answers) != len(cases):
        print(f"{args.impl!r} answered {len(answers)} lines for {len(cases)} cases (exit {run.returncode})")
        if run.stderr:
            print(run.stderr.strip()[-2000:])

    failures = Counter()
    shown = 0
    for index, case in enumerate(cases):
        got = verdict(answers[index]) if index < len(answers) else "no answer"
        if got == case["expect"]:
            continue
        failures[case["area"]] += 1
        if shown < args.show:
            shown += 1
            print(f"FAIL {case['id']}: {case['predicate']}  vars={json.dumps(case['vars'], ensure_ascii=False)}"
                  f"  expected {case['expect']}, got {got}")

    failed = sum(failures.values())
    for area, count in sorted(failures.items()):
        print(f"  {area}: {count} failed")
    print(f"{len(cases) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
