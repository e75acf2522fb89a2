"""axe-core through axe-selenium-python: run it on the page the browser shows, fail on serious and critical."""

from __future__ import annotations

import json

from axe_selenium_python import Axe

import conftest

FAILING_IMPACTS = {"serious", "critical"}


def describe(violations) -> str:
    lines = []
    for v in violations:
        lines.append(f"[{v['impact']}] {v['id']}: {v['help']} ({v['helpUrl']})")
        for node in v["nodes"]:
            lines.append(f"    {' '.join(map(str, node['target']))}: {node['html'][:300]}")
            summary = node.get("failureSummary")
            if summary:
                lines.append("      " + summary.replace("\n", "\n      "))
    return "\n".join(lines)


def axe_violations(chromium) -> list[dict]:
    axe = Axe(chromium)
    axe.inject()
    results = axe.run(options=json.dumps({"resultTypes": ["violations"]}))
    assert "violations" in results, results
    # axe must have looked at the page: these rules apply to any of our forms.
    passed_or_failed = {r["id"] for r in results["passes"]} | {r["id"] for r in results["violations"]}
    assert {"document-title", "html-has-lang"} <= passed_or_failed, sorted(passed_or_failed)
    return results["violations"]


def check(chromium, label: str) -> None:
    violations = axe_violations(chromium)
    failing = [v for v in violations if v["impact"] in FAILING_IMPACTS]
    others = [v for v in violations if v["impact"] not in FAILING_IMPACTS]
    if others:
        conftest.NOTES.append(f"axe {label}:\n" + describe(others))
    assert not failing, f"axe found on {label}:\n" + describe(violations)
