"""axe-core on every example form, fresh and after a refused submission, in Chromium with JavaScript on."""

from __future__ import annotations

import re

import pytest
from selenium.webdriver.common.by import By

import pages
import support
from a11y import check


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


def test_axe_on_a_stored_record(js_browser, server):
    # Forms/account.yaml edits records `formwright serve` provides: Ada's, with a disabled user name.
    js_browser.get(server.url("/forms/account?user=ada"))
    assert js_browser.find_element(By.ID, "fw-username").get_attribute("value") == "ada"
    check(js_browser, "/forms/account?user=ada (a stored record)")


def test_axe_on_a_kept_submission_being_changed(js_browser, server, http):
    # Forms/reunion.yaml is editable: the thank-you page links to the form filled with what was sent.
    thanks, edit = support.sent_reunion(http, server)
    js_browser.get(thanks.url)
    assert js_browser.find_element(By.CSS_SELECTOR, ".fw-edit a").get_attribute("href") == server.url(edit)
    check(js_browser, "/forms/reunion/thanks (with the edit link)")
    js_browser.get(server.url(edit))
    assert js_browser.find_element(By.ID, "fw-name").get_attribute("value") == "Ada"
    check(js_browser, "/forms/reunion?edit=… (a kept submission being changed)")


def test_axe_reports_a_planted_violation(js_browser, server):
    """The harness can fail: an input stripped of its label and placeholder is a critical `label` violation."""
    js_browser.get(server.url("/forms/event"))
    js_browser.execute_script(
        "const input = document.getElementById('fw-title');"
        "input.labels[0].remove(); input.removeAttribute('placeholder');")
    with pytest.raises(AssertionError, match=r"\[critical\] label"):
        check(js_browser, "/forms/event with an unlabelled input")
