"""A form's layout (TLFormView's): rows that share a line on a wide screen and stack on a phone
(Forms/event.json's starts and ends), and help behind a "?" that opens without a script (Forms/others.yaml)."""

from __future__ import annotations

from selenium.webdriver.common.by import By

import support
from a11y import check


def top_and_left(chromium, element_id):
    rect = chromium.execute_script(
        "const r = document.getElementById(arguments[0]).getBoundingClientRect(); return [r.top, r.left];", element_id)
    return round(rect[0]), round(rect[1])


def test_a_line_is_side_by_side_when_wide_and_stacked_on_a_phone(js_browser, server):
    chromium = js_browser
    chromium.get(server.url("/forms/event"))
    starts, ends = top_and_left(chromium, "fw-starts-row"), top_and_left(chromium, "fw-ends-row")
    assert starts[0] == ends[0] and ends[1] > starts[1], f"starts {starts}, ends {ends}: not on one line"
    chromium.set_window_size(390, 900)
    try:
        chromium.get(server.url("/forms/event"))
        starts, ends = top_and_left(chromium, "fw-starts-row"), top_and_left(chromium, "fw-ends-row")
        assert ends[0] > starts[0] and ends[1] == starts[1], f"starts {starts}, ends {ends}: not stacked"
        check(chromium, "/forms/event (on a phone's width)")
    finally:
        chromium.set_window_size(1280, 1000)


def test_help_opens_behind_its_question_mark_without_script(nojs_browser, server):
    chromium = nojs_browser
    chromium.get(server.url("/forms/others"))
    help_text = chromium.find_element(By.CSS_SELECTOR, "#fw-group_name-row details.fw-help-toggle > p.fw-help")
    assert not help_text.is_displayed()
    toggle = chromium.find_element(By.CSS_SELECTOR, "#fw-group_name-row details.fw-help-toggle > summary")
    # Its name, for a screen reader, says whose help it is; the "?" itself is not read.
    assert toggle.get_attribute("textContent") == "?Help for Group name"
    toggle.click()
    support.wait(chromium).until(lambda d: help_text.is_displayed())
    assert help_text.text == "Groups of five or more can name their group."
    described = chromium.find_element(By.ID, "fw-group_name").get_attribute("aria-describedby").split()
    assert "fw-group_name-help" in described
    # Described by the help even while the toggle is closed (a hidden copy: a closed <details> gives none).
    toggle.click()
    support.wait(chromium).until(lambda d: not help_text.is_displayed())
    description = support.ax_node(chromium, "fw-group_name").get("description", {}).get("value", "")
    assert description == "Groups of five or more can name their group."
