"""The forms with JavaScript (Chromium's default): Public/forms.js applies the form's rules live and drives the
multivalued sections. The server still judges every submission; these tests check that both agree and that what
the browser posts is what the user arranged."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

import support
from a11y import check
from support import network_exchanges, posts_to, set_value, wait_until

pytestmark = pytest.mark.skipif(
    not support.forms_js_exists(),
    reason="Public/forms.js does not exist yet (it is being written); these tests state what it must do",
)


def open_form(chromium, server, form_id):
    chromium.get(server.url(f"/forms/{form_id}"))
    support.wait(chromium).until(lambda d: d.execute_script("return document.readyState") == "complete")
    network_exchanges(chromium)  # drop the GET's entries: each test reads only what its own actions sent
    # forms.js must have loaded (Resource Timing sees it whether it came from the network or a cache).
    status = chromium.execute_script(
        "const e = performance.getEntriesByType('resource').find(e => e.name.endsWith('/static/forms.js'));"
        "return e ? e.responseStatus : null")
    assert status is not None and status < 400, f"/static/forms.js did not load (status {status})"
    # A marker that survives only as long as this document: a page load would lose it.
    chromium.execute_script("window.__fwSameDocument = true")


def same_document(chromium) -> bool:
    return chromium.execute_script("return window.__fwSameDocument === true")


def displayed(chromium, element_id) -> bool:
    return chromium.find_element(By.ID, element_id).is_displayed()


def press(chromium, element, key):
    """Focus a control the way a keyboard user would have it focused, then press a key on it."""
    chromium.execute_script("arguments[0].focus()", element)
    assert chromium.switch_to.active_element == element, "the control did not take focus"
    ActionChains(chromium).send_keys(key).perform()


def assert_no_console_errors(chromium):
    # Chromium logs the favicon (its own request) and every 422 answer (a refused form, expected here) as errors.
    errors = [m for m in support.severe_console_messages(chromium)
              if "favicon.ico" not in m and "the server responded with a status of 422" not in m]
    assert not errors, "console errors:\n" + "\n".join(errors)


def submit_button(chromium):
    return chromium.find_element(By.CSS_SELECTOR, ".fw-actions button[type=submit]")


# ---------------------------------------------------------------------------------------------------------------
# The event form


def test_second_alert_follows_alert_live(js_browser, server):
    chromium = js_browser
    open_form(chromium, server, "event")
    assert not displayed(chromium, "fw-second_alert-row")

    alert = Select(chromium.find_element(By.ID, "fw-alert"))
    alert.select_by_value("15m")
    wait_until(lambda: displayed(chromium, "fw-second_alert-row"), message="the second alert to appear")
    alert.select_by_value("never")
    wait_until(lambda: not displayed(chromium, "fw-second_alert-row"), message="the second alert to disappear")
    alert.select_by_value("1d")
    wait_until(lambda: displayed(chromium, "fw-second_alert-row"), message="the second alert to come back")
    assert same_document(chromium), "the page was reloaded: conditions must apply without a round trip"
    assert_no_console_errors(chromium)


def test_all_day_switch_toggles_and_is_posted(js_browser, server):
    chromium = js_browser
    open_form(chromium, server, "event")
    switch = chromium.find_element(By.ID, "fw-all_day")
    assert switch.get_attribute("role") == "switch"
    assert not switch.is_selected()
    press(chromium, switch, Keys.SPACE)
    assert switch.is_selected()
    press(chromium, switch, Keys.SPACE)
    assert not switch.is_selected()
    chromium.find_element(By.CSS_SELECTOR, "label[for=fw-all_day]").click()  # the label toggles it too
    assert switch.is_selected()
    # Nothing in this form depends on all-day: no row may vanish or lock when it changes.
    for row in ("fw-starts-row", "fw-ends-row", "fw-title-row"):
        assert displayed(chromium, row), row
    for control in ("fw-starts", "fw-ends", "fw-all_day"):
        assert chromium.find_element(By.ID, control).is_enabled(), control

    chromium.find_element(By.ID, "fw-title").send_keys("Holiday")
    set_value(chromium, chromium.find_element(By.ID, "fw-starts"), "2026-12-24T00:00")
    set_value(chromium, chromium.find_element(By.ID, "fw-ends"), "2026-12-26T00:00")
    submit_button(chromium).click()
    wait_until(lambda: chromium.current_url == server.url("/forms/event/thanks"), message="the thank-you page")

    [post] = posts_to(network_exchanges(chromium), "/forms/event")
    assert post.status == 303
    assert post.values("all-day") == ["on"]
    response = support.post_as_api(support.browser_session(chromium), server.url("/forms/event"), post.form_pairs())
    assert response.status_code == 200, response.text
    assert response.json()["httpParameters"]["all-day"] is True
    assert_no_console_errors(chromium)


def test_empty_submit_shows_summary_with_focus_then_fixed_submit_thanks(js_browser, server):
    chromium = js_browser
    open_form(chromium, server, "event")
    submit_button(chromium).click()

    # forms.js may judge the empty form itself or let the server answer 422: either way the same summary.
    wait_until(lambda: chromium.find_elements(By.ID, "fw-summary")
               and chromium.find_element(By.ID, "fw-summary").is_displayed(), message="the error summary")
    support.assert_summary_with_inline_errors(chromium, ["fw-title", "fw-starts", "fw-ends"])
    wait_until(lambda: support.active_element_id(chromium) == "fw-summary", message="focus on the summary")
    for post in posts_to(network_exchanges(chromium), "/forms/event"):
        assert post.status == 422  # if it went to the server, the server refused it

    chromium.find_element(By.ID, "fw-title").send_keys("Team lunch")
    set_value(chromium, chromium.find_element(By.ID, "fw-starts"), "2026-11-23T12:00")
    set_value(chromium, chromium.find_element(By.ID, "fw-ends"), "2026-11-23T13:00")
    submit_button(chromium).click()
    wait_until(lambda: chromium.current_url == server.url("/forms/event/thanks"), message="the thank-you page")
    assert chromium.find_element(By.TAG_NAME, "h1").text == "Thank you"
    [post] = posts_to(network_exchanges(chromium), "/forms/event")
    assert post.status == 303
    assert_no_console_errors(chromium)


# ---------------------------------------------------------------------------------------------------------------
# Rules other than hidden: required and disabled, and a hidden section


def test_pets_names_and_contact_section_follow_their_switches(js_browser, server):
    chromium = js_browser
    open_form(chromium, server, "pets")
    names = chromium.find_element(By.ID, "fw-pet_names")
    assert not displayed(chromium, "fw-pet_names-row")
    assert not displayed(chromium, "fw-contact")

    press(chromium, chromium.find_element(By.ID, "fw-has_pets"), Keys.SPACE)
    wait_until(lambda: displayed(chromium, "fw-pet_names-row"), message="the names row")
    wait_until(lambda: chromium.execute_script("return arguments[0].required", names), message="names required")
    # The required marker is shown, and kept from screen readers (they hear `required` instead).
    marker = chromium.find_element(By.CSS_SELECTOR, "#fw-pet_names-row .fw-required")
    assert marker.get_attribute("hidden") is None
    assert marker.get_attribute("aria-hidden") == "true"
    press(chromium, chromium.find_element(By.ID, "fw-has_pets"), Keys.SPACE)
    wait_until(lambda: not displayed(chromium, "fw-pet_names-row"), message="the names row to go")

    chromium.find_element(By.CSS_SELECTOR, "label[for=fw-show_contact]").click()
    wait_until(lambda: displayed(chromium, "fw-contact"), message="the contact section")
    assert displayed(chromium, "fw-contact_email")
    chromium.find_element(By.CSS_SELECTOR, "label[for=fw-show_contact]").click()
    wait_until(lambda: not displayed(chromium, "fw-contact"), message="the contact section to go")
    assert same_document(chromium)

    # The server agrees: pets, no names, submitted -> the names are required.
    press(chromium, chromium.find_element(By.ID, "fw-has_pets"), Keys.SPACE)
    wait_until(lambda: displayed(chromium, "fw-pet_names-row"), message="the names row")
    submit_button(chromium).click()
    wait_until(lambda: chromium.find_elements(By.ID, "fw-summary"), message="the error summary")
    support.assert_summary_with_inline_errors(chromium, ["fw-pet_names"])
    assert "Tell us your pets' names" in chromium.find_element(By.ID, "fw-summary").text
    assert_no_console_errors(chromium)


def test_group_name_is_enabled_from_five_tickets(js_browser, server):
    chromium = js_browser
    open_form(chromium, server, "others")
    count = chromium.find_element(By.ID, "fw-count")
    group = chromium.find_element(By.ID, "fw-group_name")
    assert not group.is_enabled()
    count.clear()
    count.send_keys("5")
    wait_until(lambda: group.is_enabled(), message="the group name to be enabled")
    count.clear()
    count.send_keys("2")
    wait_until(lambda: not group.is_enabled(), message="the group name to be disabled again")
    assert not chromium.find_element(By.ID, "fw-reference").is_enabled()  # disabled: true, always
    assert_no_console_errors(chromium)


# ---------------------------------------------------------------------------------------------------------------
# The multivalued section: add, delete and reorder in the page, by keyboard


def items(chromium):
    return chromium.find_elements(By.CSS_SELECTOR, "[data-fw-multivalued=tags] .fw-item")


def values(chromium):
    return [i.find_element(By.CSS_SELECTOR, "input[name=tags]").get_attribute("value") for i in items(chromium)]


def action(chromium, index, name):
    return items(chromium)[index].find_element(By.CSS_SELECTOR, f"[data-fw-action={name}]")


def wait_for_values(chromium, expected):
    wait_until(lambda: values(chromium) == expected, message=f"items {expected} (have {values(chromium)})")


def test_multivalued_add_delete_reorder_by_keyboard_posts_in_order(js_browser, server):
    chromium = js_browser
    open_form(chromium, server, "multivalued")
    wait_until(lambda: all(b.is_displayed() for b in chromium.find_elements(By.CSS_SELECTOR, "[data-fw-action]")),
               message="forms.js to reveal Remove / Move up / Move down")
    assert values(chromium) == ["swift", "forms"]

    add = chromium.find_element(By.CSS_SELECTOR, "button[name=_add]")
    press(chromium, add, Keys.ENTER)
    wait_for_values(chromium, ["swift", "forms", ""])
    items(chromium)[2].find_element(By.CSS_SELECTOR, "input").send_keys("rust")

    press(chromium, action(chromium, 0, "remove"), Keys.ENTER)
    wait_for_values(chromium, ["forms", "rust"])
    press(chromium, action(chromium, 1, "up"), Keys.SPACE)
    wait_for_values(chromium, ["rust", "forms"])

    press(chromium, chromium.find_element(By.CSS_SELECTOR, "button[name=_add]"), Keys.SPACE)
    wait_for_values(chromium, ["rust", "forms", ""])
    items(chromium)[2].find_element(By.CSS_SELECTOR, "input").send_keys("css")
    press(chromium, action(chromium, 2, "up"), Keys.ENTER)
    wait_for_values(chromium, ["rust", "css", "forms"])
    press(chromium, action(chromium, 0, "down"), Keys.SPACE)
    wait_for_values(chromium, ["css", "rust", "forms"])
    assert same_document(chromium), "adding, deleting and moving must happen in the page"

    # Every item stays a labelled control with an id of its own, whatever was added or moved.
    ids = chromium.execute_script(
        "return [...document.querySelectorAll('[data-fw-multivalued=tags] .fw-item input')]"
        ".map(i => [i.id, i.labels.length])")
    assert len({i for i, _ in ids}) == len(ids), ids
    assert all(count == 1 for _, count in ids), ids
    assert chromium.execute_script(
        "const all = [...document.querySelectorAll('[id]')].map(e => e.id); return new Set(all).size === all.length")
    check(chromium, "/forms/multivalued after adding, deleting and moving items")

    submit_button(chromium).click()
    wait_until(lambda: chromium.current_url == server.url("/forms/multivalued/thanks"), message="the thank-you page")
    # What the browser really posted, from DevTools' Network log: the items in the order on screen.
    [post] = posts_to(network_exchanges(chromium), "/forms/multivalued")
    assert post.status == 303
    assert post.values("tags") == ["css", "rust", "forms"]
    # And what the server makes of that very body: the payload in the same order.
    response = support.post_as_api(support.browser_session(chromium), server.url("/forms/multivalued"),
                                   post.form_pairs())
    assert response.status_code == 200, response.text
    assert response.json()["httpParameters"] == {"tags": ["css", "rust", "forms"]}
    assert_no_console_errors(chromium)


# ---------------------------------------------------------------------------------------------------------------
# Slider outputs (fixture form `sliders`)


def test_slider_outputs_show_the_sliders_value_from_the_start(js_browser, fixture_server):
    chromium = js_browser
    open_form(chromium, fixture_server, "sliders")
    shown = {}
    for tag in ("vol", "level", "plain", "fine", "snapped"):
        slider = chromium.find_element(By.ID, f"fw-{tag}")
        output = chromium.find_element(By.ID, f"fw-{tag}-output")
        assert output.text == slider.get_property("value"), tag
        shown[tag] = output.text
    # HTML's range default, and a value the browser snapped to the step (7 with step 5 is 5).
    assert shown == {"vol": "5", "level": "6", "plain": "50", "fine": "1.5", "snapped": "5"}

    slider = chromium.find_element(By.ID, "fw-level")
    press(chromium, slider, Keys.ARROW_RIGHT)
    wait_until(lambda: chromium.find_element(By.ID, "fw-level-output").text == "9", message="the output to follow")
    assert_no_console_errors(chromium)
