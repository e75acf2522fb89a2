"""axe-core on every example form, fresh and after a refused submission, in Chromium with JavaScript on."""

from __future__ import annotations

import json
import re

import pytest
from axe_selenium_python import Axe
from selenium.webdriver.common.by import By

import conftest
import pages
import support

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


def test_index_lists_every_example_form(http, server):
    index = http.get(server.url("/forms"), timeout=support.HTTP_TIMEOUT).text
    linked = sorted(re.findall(r'href="/forms/([^"/]+)"', index))
    assert linked == support.example_form_ids()


def test_axe_on_the_index(js_browser, server):
    js_browser.get(server.url("/forms"))
    check(js_browser, "/forms")


@pytest.mark.parametrize("form_id", support.example_form_ids())
def test_axe_on_fresh_form(js_browser, server, form_id):
    js_browser.get(server.url(f"/forms/{form_id}"))
    assert js_browser.find_element(By.ID, "fw-form").is_displayed()
    check(js_browser, f"/forms/{form_id} (fresh)")


@pytest.mark.parametrize("form_id", support.example_form_ids())
def test_axe_on_refused_form(js_browser, server, form_id):
    pages.open_refused_in_browser(js_browser, server, form_id)
    assert js_browser.find_element(By.ID, "fw-summary").is_displayed()
    check(js_browser, f"/forms/{form_id} (after a refused submission)")
