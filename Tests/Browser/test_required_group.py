"""A required multiple selector is announced as required (Tests/Browser/forms/misc.yaml, required.yaml): its
check boxes cannot carry `required` (that would mean "tick this one") and `aria-required` is not allowed on a
group, so the legend says it in words, for screen readers only. Read from Chromium's own accessibility tree."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import pages
import support
from a11y import check
from support import wait_until


def accessible(chromium, element_id):
    """(role, name) of the element with `element_id`, as Chromium's accessibility tree has it."""
    ax = support.ax_node(chromium, element_id)
    return ax["role"]["value"], ax.get("name", {}).get("value", "")


def test_a_required_check_box_group_is_named_required(js_browser, fixture_server):
    chromium = js_browser
    chromium.get(fixture_server.url("/forms/misc"))
    assert accessible(chromium, "fw-toppings") == ("group", "Toppings required")
    # The radio group says it through its radios' own `required`; nothing is added to its name.
    assert accessible(chromium, "fw-kind") == ("group", "Kind")
    assert chromium.find_element(By.ID, "fw-kind-0").get_attribute("required") == "true"
    check(chromium, "/forms/misc (fresh)")


def test_the_words_follow_a_required_predicate_live(js_browser, fixture_server):
    chromium = js_browser
    chromium.get(fixture_server.url("/forms/required"))
    assert accessible(chromium, "fw-extras") == ("group", "Extras")
    switch = chromium.find_element(By.ID, "fw-want")
    chromium.execute_script("arguments[0].focus()", switch)
    switch.send_keys(Keys.SPACE)
    wait_until(lambda: accessible(chromium, "fw-extras") == ("group", "Extras required"),
               message="the group to be named required")
    switch.send_keys(Keys.SPACE)
    wait_until(lambda: accessible(chromium, "fw-extras") == ("group", "Extras"), message="the words to go")


def test_the_refused_misc_page_passes_axe(js_browser, fixture_server):
    pages.open_refused_in_browser(js_browser, fixture_server, "misc")
    assert accessible(js_browser, "fw-toppings") == ("group", "Toppings required")
    check(js_browser, "/forms/misc (after a refused submission)")
