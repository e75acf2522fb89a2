"""The forms with JavaScript (Chromium's default): Public/forms.js applies the form's rules live and drives the
multivalued sections. The server still judges every submission; these tests check that both agree and that what
the browser posts is what the user arranged."""

from __future__ import annotations

import re

import pytest
import requests
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

import pages
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
    expect_script(chromium)


def open_answer(chromium, server, form_id, body):
    """The page the server answers `body` with (pages.post_in_browser), with forms.js running on it."""
    post = pages.post_in_browser(chromium, server, form_id, body)
    expect_script(chromium)
    return post


def expect_script(chromium):
    # forms-rules.js and forms.js must have loaded (Resource Timing sees them whether they came from the
    # network or a cache).
    for script in ("/static/forms-rules.js", "/static/forms.js"):
        status = chromium.execute_script(
            "const e = performance.getEntriesByType('resource').find(e => e.name.endsWith(arguments[0]));"
            "return e ? e.responseStatus : null", script)
        assert status is not None and status < 400, f"{script} did not load (status {status})"
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


def test_values_restored_on_back_are_decided_again(js_browser, server):
    # Submit refused (no title), then Back: the browser puts "15 minutes before" back into Alert after the
    # page's script ran once; the second alert must follow it, as the server would decide.
    chromium = js_browser
    open_form(chromium, server, "event")
    Select(chromium.find_element(By.ID, "fw-alert")).select_by_value("15m")
    wait_until(lambda: displayed(chromium, "fw-second_alert-row"), message="the second alert to appear")
    old = chromium.find_element(By.TAG_NAME, "html")
    chromium.find_element(By.ID, "fw-form").submit()
    support.wait(chromium).until(lambda _: support.is_gone(old))
    wait_until(lambda: chromium.find_elements(By.ID, "fw-summary"), message="the refused page")
    chromium.back()
    wait_until(lambda: chromium.execute_script("return document.readyState") == "complete", message="the page")
    wait_until(lambda: Select(chromium.find_element(By.ID, "fw-alert")).first_selected_option.get_attribute("value")
               == "15m", message="the browser to restore Alert")
    wait_until(lambda: displayed(chromium, "fw-second_alert-row"), message="the second alert to follow the restored Alert")
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
    wait_until(lambda: support.is_thanks(chromium.current_url, server.url("/forms/event/thanks")), message="the thank-you page")

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
    wait_until(lambda: support.is_thanks(chromium.current_url, server.url("/forms/event/thanks")), message="the thank-you page")
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


def test_a_row_disabled_live_shows_the_value_the_server_keeps(js_browser, server):
    # After a refused post the group name shows what was typed; with fewer than five tickets the server
    # keeps "Our group" for it, so that is what the page shows (and reads) while it is disabled.
    chromium = js_browser
    open_form(chromium, server, "others")
    count = chromium.find_element(By.ID, "fw-count")
    count.clear()
    count.send_keys("6")
    group = chromium.find_element(By.ID, "fw-group_name")
    wait_until(lambda: group.is_enabled(), message="the group name to be enabled")
    group.clear()
    group.send_keys("AB")  # shorter than the three characters it needs
    submit_button(chromium).click()
    wait_until(lambda: chromium.find_elements(By.ID, "fw-summary"), message="the error summary")
    group = chromium.find_element(By.ID, "fw-group_name")
    assert group.get_attribute("value") == "AB"
    count = chromium.find_element(By.ID, "fw-count")
    count.clear()
    count.send_keys("2")
    wait_until(lambda: not group.is_enabled(), message="the group name to be disabled")
    assert group.get_attribute("value") == "Our group"
    count.clear()
    count.send_keys("7")
    wait_until(lambda: group.is_enabled(), message="the group name to be enabled again")
    assert group.get_attribute("value") == "AB"  # what was typed comes back
    assert_no_console_errors(chromium)


# ---------------------------------------------------------------------------------------------------------------
# The multivalued section: add, delete and reorder in the page, by keyboard


def items(chromium):
    return chromium.find_elements(By.CSS_SELECTOR, "[data-fw-multivalued=tags] .fw-item")


def values(chromium):
    return [i.find_element(By.CSS_SELECTOR, "input[name=tags]").get_attribute("value") for i in items(chromium)]


def action(chromium, index, name):
    return items(chromium)[index].find_element(By.CSS_SELECTOR, f"[data-fw-action={name}]")


def open_multivalued(chromium, server):
    """The multivalued example, once forms.js has revealed its item buttons."""
    open_form(chromium, server, "multivalued")
    wait_until(lambda: all(b.is_displayed() for b in chromium.find_elements(By.CSS_SELECTOR, "[data-fw-action]")),
               message="forms.js to reveal Remove / Move up / Move down")


def wait_for_values(chromium, expected):
    wait_until(lambda: values(chromium) == expected, message=f"items {expected} (have {values(chromium)})")


def test_multivalued_add_delete_reorder_by_keyboard_posts_in_order(js_browser, server):
    chromium = js_browser
    open_multivalued(chromium, server)
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
    wait_until(lambda: support.is_thanks(chromium.current_url, server.url("/forms/multivalued/thanks")), message="the thank-you page")
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


def item_labels(chromium):
    return [i.find_element(By.CSS_SELECTOR, "label").text for i in items(chromium)]


def button_names(chromium, index):
    """What a screen reader hears for item `index`'s buttons: Chromium's computed accessible names."""
    return [b.accessible_name for b in items(chromium)[index].find_elements(By.CSS_SELECTOR, "[data-fw-action]")]


def announced(chromium):
    return chromium.find_element(By.ID, "fw-status").get_attribute("textContent")


def wait_for_announcement(chromium, text):
    wait_until(lambda: announced(chromium) == text, message=f"{text!r} announced (have {announced(chromium)!r})")


def test_item_buttons_name_their_item_and_actions_are_announced(js_browser, server):
    chromium = js_browser
    open_multivalued(chromium, server)
    live_regions = chromium.find_elements(By.ID, "fw-status")  # before any action: live regions must be there
    assert all(region.get_attribute("textContent") == "" for region in live_regions)
    add = chromium.find_element(By.CSS_SELECTOR, "button[name=_add]")

    # Added: "Tag 3" everywhere, focus in its field.
    press(chromium, add, Keys.ENTER)
    wait_for_values(chromium, ["swift", "forms", ""])
    assert item_labels(chromium) == ["Tag 1", "Tag 2", "Tag 3"]
    for k in range(3):
        assert button_names(chromium, k) == [f"Remove Tag {k + 1}", f"Move up Tag {k + 1}", f"Move down Tag {k + 1}"]
    assert [region.get_attribute("role") for region in live_regions] == ["status"]  # polite
    wait_for_announcement(chromium, "Tag 3 added")
    assert support.active_element_id(chromium) == "fw-tags-2"
    items(chromium)[2].find_element(By.CSS_SELECTOR, "input").send_keys("rust")

    # Removed: the others are renumbered, buttons too; focus on the next item's Remove.
    press(chromium, action(chromium, 0, "remove"), Keys.ENTER)
    wait_for_values(chromium, ["forms", "rust"])
    assert item_labels(chromium) == ["Tag 1", "Tag 2"]
    assert button_names(chromium, 0) == ["Remove Tag 1", "Move up Tag 1", "Move down Tag 1"]
    assert button_names(chromium, 1) == ["Remove Tag 2", "Move up Tag 2", "Move down Tag 2"]
    wait_for_announcement(chromium, "Tag 1 removed")
    assert chromium.switch_to.active_element == action(chromium, 0, "remove")

    # Moved: focus stays on the button pressed, which names the item where it landed.
    press(chromium, action(chromium, 0, "down"), Keys.SPACE)
    wait_for_values(chromium, ["rust", "forms"])
    wait_for_announcement(chromium, "Tag 2 moved down")
    assert chromium.switch_to.active_element == action(chromium, 1, "down")
    assert chromium.switch_to.active_element.accessible_name == "Move down Tag 2"
    press(chromium, action(chromium, 1, "up"), Keys.ENTER)
    wait_for_values(chromium, ["forms", "rust"])
    wait_for_announcement(chromium, "Tag 1 moved up")
    assert chromium.switch_to.active_element == action(chromium, 0, "up")
    assert item_labels(chromium) == ["Tag 1", "Tag 2"]

    # The last item removed: focus goes on to "Add another".
    press(chromium, action(chromium, 1, "remove"), Keys.ENTER)
    wait_for_values(chromium, ["forms"])
    wait_for_announcement(chromium, "Tag 2 removed")
    assert chromium.switch_to.active_element == chromium.find_element(By.CSS_SELECTOR, "button[name=_add]")
    assert same_document(chromium)
    check(chromium, "/forms/multivalued after announced item actions")
    assert_no_console_errors(chromium)


# ---------------------------------------------------------------------------------------------------------------
# The error summary follows the page (fixture form `items`, Tests/Browser/forms)


def summary_targets(chromium):
    """The ids the summary's shown links lead to, in order."""
    return [a.get_attribute("href").split("#", 1)[1]
            for a in chromium.find_elements(By.CSS_SELECTOR, "#fw-summary a") if a.is_displayed()]


def summary_heading(chromium):
    return chromium.find_element(By.ID, "fw-summary-title").text


def summary_shown(chromium) -> bool:
    return chromium.find_element(By.ID, "fw-summary").is_displayed()


def list_items(chromium, tag):
    return chromium.find_elements(By.CSS_SELECTOR, f"[data-fw-multivalued={tag}] .fw-items .fw-item")


def list_values(chromium, tag):
    return [i.find_element(By.CSS_SELECTOR, "input").get_attribute("value") for i in list_items(chromium, tag)]


def list_action(chromium, tag, index, name):
    return list_items(chromium, tag)[index].find_element(By.CSS_SELECTOR, f"[data-fw-action={name}]")


def follow_summary_link(chromium, index):
    """Click the summary's shown link `index`; return the id and value of what took focus."""
    links = [a for a in chromium.find_elements(By.CSS_SELECTOR, "#fw-summary a") if a.is_displayed()]
    links[index].click()
    return chromium.execute_script("const e = document.activeElement; return [e.id, e.value ?? null]")


def test_summary_links_follow_their_items(js_browser, fixture_server):
    chromium = js_browser
    post = open_answer(chromium, fixture_server, "items", [
        ("code", "z"), ("emails", "x"), ("emails", "c@d.co"), ("emails", "bad@"), ("emails", "ok@ok.com"),
        ("seats", "3")])
    assert post.status == 422
    assert summary_targets(chromium) == ["fw-emails-0", "fw-emails-0", "fw-emails-2", "fw-emails-2"]
    assert summary_heading(chromium) == "There are 4 problems"

    # The first item goes: its errors leave the summary, and bad@'s links follow it to its new place.
    press(chromium, list_action(chromium, "emails", 0, "remove"), Keys.ENTER)
    wait_until(lambda: list_values(chromium, "emails") == ["c@d.co", "bad@", "ok@ok.com"], message="x removed")
    wait_until(lambda: summary_targets(chromium) == ["fw-emails-1", "fw-emails-1"],
               message=f"links to bad@ (have {summary_targets(chromium)})")
    assert summary_heading(chromium) == "There are 2 problems"
    assert chromium.find_element(By.ID, "fw-emails-1").get_attribute("aria-invalid") == "true"
    assert follow_summary_link(chromium, 0) == ["fw-emails-1", "bad@"]

    # bad@ moves up: its links still lead to it.
    press(chromium, list_action(chromium, "emails", 1, "up"), Keys.ENTER)
    wait_until(lambda: list_values(chromium, "emails") == ["bad@", "c@d.co", "ok@ok.com"], message="bad@ moved up")
    wait_until(lambda: summary_targets(chromium) == ["fw-emails-0", "fw-emails-0"],
               message=f"links to bad@ (have {summary_targets(chromium)})")
    assert follow_summary_link(chromium, 1) == ["fw-emails-0", "bad@"]
    check(chromium, "/forms/items with a summary that followed its items")

    # bad@ goes too: nothing is left to fix, and the summary goes away.
    press(chromium, list_action(chromium, "emails", 0, "remove"), Keys.ENTER)
    wait_until(lambda: not summary_shown(chromium), message="the empty summary to go")
    assert summary_targets(chromium) == []
    assert same_document(chromium)
    assert_no_console_errors(chromium)


def test_summary_hides_the_error_of_a_hidden_row_while_it_is_hidden(js_browser, server):
    chromium = js_browser
    open_form(chromium, server, "pets")
    press(chromium, chromium.find_element(By.ID, "fw-has_pets"), Keys.SPACE)
    wait_until(lambda: displayed(chromium, "fw-pet_names-row"), message="the names row")
    submit_button(chromium).click()
    wait_until(lambda: chromium.find_elements(By.ID, "fw-summary"), message="the error summary")
    expect_script(chromium)
    assert summary_targets(chromium) == ["fw-pet_names"]

    # No pets: the names row hides, and so does its error; the summary, now empty, with it.
    press(chromium, chromium.find_element(By.ID, "fw-has_pets"), Keys.SPACE)
    wait_until(lambda: not displayed(chromium, "fw-pet_names-row"), message="the names row to go")
    wait_until(lambda: not summary_shown(chromium), message="the summary to go with its only error")
    assert summary_targets(chromium) == []

    # Pets again: the error is back, and its link leads to the field.
    press(chromium, chromium.find_element(By.ID, "fw-has_pets"), Keys.SPACE)
    wait_until(lambda: summary_shown(chromium), message="the summary to come back")
    assert summary_targets(chromium) == ["fw-pet_names"]
    assert "Tell us your pets' names" in chromium.find_element(By.ID, "fw-summary").text
    assert follow_summary_link(chromium, 0) == ["fw-pet_names", ""]
    assert same_document(chromium)
    assert_no_console_errors(chromium)


def test_summary_hides_the_error_of_a_disabled_row_and_counts_what_is_left(js_browser, fixture_server):
    chromium = js_browser
    post = open_answer(chromium, fixture_server, "items", [("emails", "x")])
    assert post.status == 422
    assert summary_targets(chromium) == ["fw-code", "fw-emails-0", "fw-emails-0"]
    assert summary_heading(chromium) == "There are 3 problems"

    chromium.find_element(By.CSS_SELECTOR, "label[for=fw-lock]").click()  # disables Code
    wait_until(lambda: not chromium.find_element(By.ID, "fw-code").is_enabled(), message="Code to be disabled")
    wait_until(lambda: summary_targets(chromium) == ["fw-emails-0", "fw-emails-0"], message="Code's error hidden")
    assert summary_heading(chromium) == "There are 2 problems"

    press(chromium, list_action(chromium, "emails", 0, "remove"), Keys.ENTER)
    wait_until(lambda: not summary_shown(chromium), message="the summary to go")

    chromium.find_element(By.CSS_SELECTOR, "label[for=fw-lock]").click()  # Code enabled again
    wait_until(lambda: summary_shown(chromium), message="the summary to come back")
    assert summary_targets(chromium) == ["fw-code"]
    assert summary_heading(chromium) == "There is a problem"
    assert follow_summary_link(chromium, 0) == ["fw-code", ""]
    assert_no_console_errors(chromium)


# ---------------------------------------------------------------------------------------------------------------
# "Add another" copies the server's pristine item


def add_button(chromium, tag):
    return chromium.find_element(By.CSS_SELECTOR, f"[data-fw-multivalued={tag}] button.fw-add")


def test_added_items_are_pristine_whatever_the_first_item_holds(js_browser, fixture_server):
    chromium = js_browser
    post = open_answer(chromium, fixture_server, "items", [("code", "z"), ("emails", "x"), ("seats", "abc")])
    assert post.status == 422
    # Refused entries are shown in text inputs, without bounds.
    assert chromium.find_element(By.ID, "fw-emails-0").get_attribute("type") == "text"
    assert chromium.find_element(By.ID, "fw-seats-0").get_attribute("type") == "text"

    press(chromium, add_button(chromium, "emails"), Keys.ENTER)
    wait_until(lambda: len(list_items(chromium, "emails")) == 2, message="a second address")
    email = chromium.find_element(By.ID, "fw-emails-1")
    assert email.get_attribute("type") == "email"
    assert email.get_property("value") == ""
    assert email.get_attribute("aria-invalid") is None
    assert email.get_attribute("aria-describedby") is None
    assert not list_items(chromium, "emails")[1].find_elements(By.CSS_SELECTOR, ".fw-error")
    assert email.accessible_name == "Address 2"
    assert support.active_element_id(chromium) == "fw-emails-1"

    press(chromium, add_button(chromium, "seats"), Keys.ENTER)
    wait_until(lambda: len(list_items(chromium, "seats")) == 2, message="a second seat")
    seat = chromium.find_element(By.ID, "fw-seats-1")
    assert [seat.get_attribute(a) for a in ("type", "min", "max", "step")] == ["number", "1", "9", "2"]

    # A list that started with no item has a template too.
    assert list_items(chromium, "guests") == []
    press(chromium, add_button(chromium, "guests"), Keys.ENTER)
    wait_until(lambda: len(list_items(chromium, "guests")) == 1, message="a first guest")
    guest = chromium.find_element(By.ID, "fw-guests-0")
    assert guest.get_attribute("type") == "email"
    assert guest.accessible_name == "Guest 1"
    assert same_document(chromium), "adding an item must happen in the page"
    # The template itself is no part of the form: nothing of it is posted.
    assert len(chromium.find_elements(By.CSS_SELECTOR, "input[name=guests]")) == 1
    check(chromium, "/forms/items after adding to every list")

    chromium.find_element(By.ID, "fw-emails-0").clear()
    chromium.find_element(By.ID, "fw-emails-0").send_keys("x@y.co")
    email.send_keys("e@f.co")
    chromium.find_element(By.ID, "fw-seats-0").clear()
    chromium.find_element(By.ID, "fw-seats-0").send_keys("5")
    seat.send_keys("7")
    guest.send_keys("g@h.co")
    submit_button(chromium).click()
    wait_until(lambda: support.is_thanks(chromium.current_url, fixture_server.url("/forms/items/thanks")), message="the thank-you page")
    [post] = posts_to(network_exchanges(chromium), "/forms/items")
    assert post.status == 303
    assert (post.values("emails"), post.values("seats"), post.values("guests")) == (
        ["x@y.co", "e@f.co"], ["5", "7"], ["g@h.co"])
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


def test_a_full_list_offers_add_another_again_once_an_item_is_removed(js_browser, fixture_server):
    chromium = js_browser
    open_form(chromium, fixture_server, "full")
    add = chromium.find_element(By.CSS_SELECTOR, "[data-fw-multivalued=tags] button.fw-add")
    assert not add.is_displayed()  # two of two: full
    first = chromium.find_elements(By.CSS_SELECTOR, "[data-fw-multivalued=tags] .fw-item")[0]
    first.find_element(By.CSS_SELECTOR, "[data-fw-action=remove]").click()
    wait_until(lambda: add.is_displayed(), message="'Add another' to come back")
    add.click()
    wait_until(lambda: len(chromium.find_elements(By.CSS_SELECTOR, "[data-fw-multivalued=tags] .fw-item")) == 2,
               message="a second item again")
    assert not add.is_displayed()
    assert_no_console_errors(chromium)


# ---------------------------------------------------------------------------------------------------------------
# Inline errors of rows and items that are disabled or hidden are put away while they are


def ax_description(chromium, element_id) -> str:
    return support.ax_node(chromium, element_id).get("description", {}).get("value", "")


def ax_invalid(chromium, element_id) -> bool:
    node = support.ax_node(chromium, element_id)
    properties = {p["name"]: p["value"].get("value") for p in node.get("properties", [])}
    return properties.get("invalid", "false") not in ("false", False)


def inline_error(chromium, control_id):
    """(shown, in the control's aria-describedby, aria-invalid) for the control's inline error paragraph."""
    error = chromium.find_element(By.ID, f"{control_id}-error")
    control = chromium.find_element(By.ID, control_id)
    described = (control.get_attribute("aria-describedby") or "").split()
    return error.is_displayed(), f"{control_id}-error" in described, control.get_attribute("aria-invalid") == "true"


def error_bar_width(chromium, wrapper_id) -> str:
    """The red bar a row or item with an error has in its margin (forms.css)."""
    return chromium.execute_script(
        "return getComputedStyle(document.getElementById(arguments[0])).borderInlineStartWidth", wrapper_id)


def refuse_group_name(chromium, server, name="ab"):
    """/forms/others refused for a group name too short, typed with six tickets."""
    open_form(chromium, server, "others")
    count = chromium.find_element(By.ID, "fw-count")
    count.clear()
    count.send_keys("6")
    group = chromium.find_element(By.ID, "fw-group_name")
    wait_until(lambda: group.is_enabled(), message="the group name to be enabled")
    group.clear()
    group.send_keys(name)
    submit_button(chromium).click()
    wait_until(lambda: chromium.find_elements(By.ID, "fw-summary"), message="the error summary")
    expect_script(chromium)


def set_tickets(chromium, count):
    field = chromium.find_element(By.ID, "fw-count")
    field.clear()
    field.send_keys(str(count))


def test_a_disabled_rows_inline_error_is_put_away_until_it_is_enabled(js_browser, server):
    chromium = js_browser
    refuse_group_name(chromium, server)
    group = chromium.find_element(By.ID, "fw-group_name")
    assert inline_error(chromium, "fw-group_name") == (True, True, True)
    assert "must be at least 3 characters" in ax_description(chromium, "fw-group_name")
    assert ax_invalid(chromium, "fw-group_name")
    assert error_bar_width(chromium, "fw-group_name-row") == "4px"

    # Two tickets: the row is disabled, and so is its error, out of sight and out of the description.
    set_tickets(chromium, 2)
    wait_until(lambda: not group.is_enabled(), message="the group name to be disabled")
    assert group.get_attribute("value") == "Our group"
    assert inline_error(chromium, "fw-group_name") == (False, False, False)
    assert ax_description(chromium, "fw-group_name") == "Groups of five or more can name their group."
    assert not ax_invalid(chromium, "fw-group_name")
    assert group.get_attribute("aria-describedby") == "fw-group_name-help"
    assert error_bar_width(chromium, "fw-group_name-row") == "0px"
    check(chromium, "/forms/others with a refused row disabled live")

    # Seven: enabled again with what was typed, and the server's verdict on it is back, as it was.
    set_tickets(chromium, 7)
    wait_until(lambda: group.is_enabled(), message="the group name to be enabled again")
    assert group.get_attribute("value") == "ab"
    assert inline_error(chromium, "fw-group_name") == (True, True, True)
    assert group.get_attribute("aria-describedby") == "fw-group_name-help fw-group_name-error"
    assert "must be at least 3 characters" in ax_description(chromium, "fw-group_name")
    assert ax_invalid(chromium, "fw-group_name")
    assert error_bar_width(chromium, "fw-group_name-row") == "4px"
    assert same_document(chromium)
    assert_no_console_errors(chromium)


def test_a_locked_codes_inline_error_is_put_away_while_it_is_locked(js_browser, fixture_server):
    chromium = js_browser
    post = open_answer(chromium, fixture_server, "items", [("emails", "x")])
    assert post.status == 422
    assert inline_error(chromium, "fw-code") == (True, True, True)
    chromium.find_element(By.CSS_SELECTOR, "label[for=fw-lock]").click()  # disables Code
    wait_until(lambda: not chromium.find_element(By.ID, "fw-code").is_enabled(), message="Code to be disabled")
    assert inline_error(chromium, "fw-code") == (False, False, False)
    assert chromium.find_element(By.ID, "fw-code").get_attribute("aria-describedby") is None
    assert ax_description(chromium, "fw-code") == ""
    assert not ax_invalid(chromium, "fw-code")
    # The items' errors are not the code's: they stay.
    assert inline_error(chromium, "fw-emails-0") == (True, True, True)

    chromium.find_element(By.CSS_SELECTOR, "label[for=fw-lock]").click()
    wait_until(lambda: chromium.find_element(By.ID, "fw-code").is_enabled(), message="Code to be enabled")
    assert inline_error(chromium, "fw-code") == (True, True, True)
    assert "Code can't be empty" in ax_description(chromium, "fw-code")
    assert_no_console_errors(chromium)


def item_errors_state(chromium):
    """For the `hidelist` fixture: each error paragraph's `hidden`, who it describes, what is aria-invalid."""
    return chromium.execute_script("""
        const errors = [...document.querySelectorAll('#fw-form .fw-error')];
        const described = [...document.querySelectorAll('[aria-describedby]')]
            .filter(e => e.getAttribute('aria-describedby').split(' ').some(id => id.endsWith('-error')))
            .map(e => e.id);
        const invalid = [...document.querySelectorAll('[aria-invalid=true]')].map(e => e.id);
        return [errors.map(e => e.hidden), described, invalid];
    """)


def test_a_hidden_lists_errors_are_put_away_and_come_back_with_it(js_browser, fixture_server):
    chromium = js_browser
    post = open_answer(chromium, fixture_server, "hidelist", [("emails", "x"), ("emails", "c@d.co"),
                                                              ("emails", "ok@ok.com")])
    assert post.status == 422
    assert list_values(chromium, "emails") == ["x", "c@d.co"]  # the server keeps two: `maxRows`
    shown = [[False, False], ["fw-section_1", "fw-emails-0"], ["fw-emails-0"]]  # the section's error, x's
    assert item_errors_state(chromium) == shown

    chromium.find_element(By.CSS_SELECTOR, "label[for=fw-hide]").click()
    wait_until(lambda: not displayed(chromium, "fw-section_1"), message="the list to hide")
    assert item_errors_state(chromium) == [[True, True], [], []]
    wait_until(lambda: not summary_shown(chromium), message="the summary to go")

    chromium.find_element(By.CSS_SELECTOR, "label[for=fw-hide]").click()
    wait_until(lambda: displayed(chromium, "fw-section_1"), message="the list to come back")
    assert item_errors_state(chromium) == shown
    assert "Address 1 must be a valid email address" in ax_description(chromium, "fw-emails-0")
    assert "Addresses accepts at most 2 entries" in ax_description(chromium, "fw-section_1")

    # An item moved while its list was hidden comes back with its error, under its new number.
    chromium.find_element(By.CSS_SELECTOR, "label[for=fw-hide]").click()
    wait_until(lambda: not displayed(chromium, "fw-section_1"), message="the list to hide")
    chromium.execute_script(
        "const list = document.querySelector('[data-fw-multivalued=emails] .fw-items');"
        "list.querySelector('[data-fw-action=down]').click();")
    chromium.find_element(By.CSS_SELECTOR, "label[for=fw-hide]").click()
    wait_until(lambda: displayed(chromium, "fw-section_1"), message="the list to come back")
    assert list_values(chromium, "emails") == ["c@d.co", "x"]
    assert item_errors_state(chromium) == [[False, False], ["fw-section_1", "fw-emails-1"], ["fw-emails-1"]]
    assert "Address 2 must be a valid email address" in ax_description(chromium, "fw-emails-1")
    check(chromium, "/forms/hidelist after hiding and showing a refused list")
    assert_no_console_errors(chromium)


# ---------------------------------------------------------------------------------------------------------------
# Item errors name their item as its label does, after remove and move


def item_error_texts(chromium, tag):
    """Each item's inline error text (without the screen-reader "Error:" prefix), in item order; None if none."""
    return chromium.execute_script("""
        return [...document.querySelectorAll(`[data-fw-multivalued=${arguments[0]}] .fw-items .fw-item`)].map(item => {
            const error = item.querySelector('.fw-error');
            if (!error) return null;
            const copy = error.cloneNode(true);
            copy.querySelectorAll('.fw-visually-hidden').forEach(s => s.remove());
            copy.querySelectorAll('br').forEach(b => b.replaceWith(' | '));
            return copy.textContent;
        });
    """, tag)


def summary_texts(chromium):
    return [li.text for li in chromium.find_elements(By.CSS_SELECTOR, "#fw-summary li") if li.is_displayed()]


def test_item_errors_are_renumbered_with_their_items(js_browser, fixture_server):
    chromium = js_browser
    post = open_answer(chromium, fixture_server, "items", [
        ("code", "z"), ("emails", "a@b.co"), ("emails", "bad"), ("emails", "x@y"), ("seats", "3")])
    assert post.status == 422
    assert summary_texts(chromium) == [
        "Address 2 must be a valid email address", "Address 2 must be at least 6 characters",
        "Address 3 must be at least 6 characters"]

    press(chromium, list_action(chromium, "emails", 0, "remove"), Keys.ENTER)
    wait_until(lambda: list_values(chromium, "emails") == ["bad", "x@y"], message="a@b.co removed")
    wait_until(lambda: summary_texts(chromium) == [
        "Address 1 must be a valid email address", "Address 1 must be at least 6 characters",
        "Address 2 must be at least 6 characters"], message=f"renumbered messages (have {summary_texts(chromium)})")
    assert item_error_texts(chromium, "emails") == [
        "Address 1 must be a valid email address | Address 1 must be at least 6 characters",
        "Address 2 must be at least 6 characters"]
    assert "Address 1 must be a valid email address" in ax_description(chromium, "fw-emails-0")

    # x@y moves up: its message says where it is now, and so do bad's.
    press(chromium, list_action(chromium, "emails", 1, "up"), Keys.ENTER)
    wait_until(lambda: list_values(chromium, "emails") == ["x@y", "bad"], message="x@y moved up")
    assert item_error_texts(chromium, "emails") == [
        "Address 1 must be at least 6 characters",
        "Address 2 must be a valid email address | Address 2 must be at least 6 characters"]
    # The summary reads in page order, as the server writes it: x@y's entry now comes first.
    assert summary_texts(chromium) == [
        "Address 1 must be at least 6 characters", "Address 2 must be a valid email address",
        "Address 2 must be at least 6 characters"]
    assert item_labels_of(chromium, "emails") == ["Address 1", "Address 2"]
    check(chromium, "/forms/items with renumbered item errors")
    assert_no_console_errors(chromium)


def item_labels_of(chromium, tag):
    return [i.find_element(By.CSS_SELECTOR, "label").text for i in list_items(chromium, tag)]


def test_item_errors_in_chinese_are_renumbered_too(js_browser, fixture_server):
    chromium = js_browser
    # The reader asks for Chinese: messages are built-in Chinese ones, the item's name (the form's) inside.
    chromium.execute_cdp_cmd("Network.enable", {})
    chromium.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {"Accept-Language": "zh-Hans"}})
    try:
        post = open_answer(chromium, fixture_server, "items", [
            ("code", "z"), ("emails", "a@b.co"), ("emails", "bad"), ("emails", "x@y"), ("seats", "3")])
    finally:
        chromium.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {}})
    assert post.status == 422
    assert summary_texts(chromium)[0] == "Address 2必须是有效的电子邮件地址"

    press(chromium, list_action(chromium, "emails", 0, "remove"), Keys.ENTER)
    wait_until(lambda: summary_texts(chromium) == [
        "Address 1必须是有效的电子邮件地址", "Address 1至少需要 6 个字符", "Address 2至少需要 6 个字符"],
               message=f"renumbered messages (have {summary_texts(chromium)})")
    assert item_error_texts(chromium, "emails") == [
        "Address 1必须是有效的电子邮件地址 | Address 1至少需要 6 个字符", "Address 2至少需要 6 个字符"]
    assert_no_console_errors(chromium)


# ---------------------------------------------------------------------------------------------------------------
# Move up on the first item and Move down on the last say they cannot act, and do nothing


def move_states(chromium):
    """Per item, (Move up's aria-disabled, Move down's aria-disabled), on the example `multivalued` form."""
    return [tuple(item.find_element(By.CSS_SELECTOR, f"[data-fw-action={name}]").get_attribute("aria-disabled")
                  for name in ("up", "down")) for item in items(chromium)]


def test_moves_past_the_ends_are_aria_disabled_and_do_nothing(js_browser, server):
    chromium = js_browser
    open_multivalued(chromium, server)
    assert move_states(chromium) == [("true", None), (None, "true")]
    for item in items(chromium):  # Remove acts on any item
        assert item.find_element(By.CSS_SELECTOR, "[data-fw-action=remove]").get_attribute("aria-disabled") is None

    # Pressed anyway: nothing moves, nothing is said, focus stays where it was.
    first_up = action(chromium, 0, "up")
    press(chromium, first_up, Keys.ENTER)
    press(chromium, action(chromium, 1, "down"), Keys.SPACE)
    assert values(chromium) == ["swift", "forms"]
    assert announced(chromium) == ""
    assert chromium.switch_to.active_element == action(chromium, 1, "down")

    press(chromium, chromium.find_element(By.CSS_SELECTOR, "button[name=_add]"), Keys.ENTER)
    wait_for_values(chromium, ["swift", "forms", ""])
    assert move_states(chromium) == [("true", None), (None, None), (None, "true")]

    # Moved down to the end: focus stays on the button, which now cannot move further.
    press(chromium, action(chromium, 1, "down"), Keys.ENTER)
    wait_for_values(chromium, ["swift", "", "forms"])
    assert chromium.switch_to.active_element == action(chromium, 2, "down")
    assert move_states(chromium) == [("true", None), (None, None), (None, "true")]

    press(chromium, action(chromium, 0, "remove"), Keys.ENTER)
    wait_for_values(chromium, ["", "forms"])
    assert move_states(chromium) == [("true", None), (None, "true")]
    press(chromium, action(chromium, 1, "remove"), Keys.ENTER)
    wait_for_values(chromium, [""])
    assert move_states(chromium) == [("true", "true")]
    check(chromium, "/forms/multivalued with a single item")
    assert_no_console_errors(chromium)


# ---------------------------------------------------------------------------------------------------------------
# The title says "Error:" only while the summary shows an error


def test_the_title_drops_its_error_prefix_while_no_error_is_shown(js_browser, server):
    chromium = js_browser
    refuse_group_name(chromium, server)
    assert chromium.title == "Error: Other rows"
    set_tickets(chromium, 2)
    wait_until(lambda: not summary_shown(chromium), message="the summary to go")
    wait_until(lambda: chromium.title == "Other rows", message=f"the plain title (have {chromium.title!r})")
    set_tickets(chromium, 7)
    wait_until(lambda: summary_shown(chromium), message="the summary to come back")
    wait_until(lambda: chromium.title == "Error: Other rows", message=f"the prefix back (have {chromium.title!r})")
    assert same_document(chromium)
    assert_no_console_errors(chromium)


def test_the_title_drops_its_error_prefix_once_every_error_is_removed(js_browser, fixture_server):
    chromium = js_browser
    chromium.execute_cdp_cmd("Network.enable", {})
    chromium.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {"Accept-Language": "zh-Hans"}})
    try:
        post = open_answer(chromium, fixture_server, "items", [("code", "z"), ("emails", "x"), ("seats", "3")])
    finally:
        chromium.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {}})
    assert post.status == 422
    assert chromium.title == "错误：Typed items"
    press(chromium, list_action(chromium, "emails", 0, "remove"), Keys.ENTER)
    wait_until(lambda: not summary_shown(chromium), message="the summary to go")
    wait_until(lambda: chromium.title == "Typed items", message=f"the plain title (have {chromium.title!r})")
    assert_no_console_errors(chromium)


# ---------------------------------------------------------------------------------------------------------------
# A stored record saved by someone else while it is open


def test_a_save_over_someone_elses_is_caught_and_sending_again_saves(js_browser, server):
    # Grace's account is open in the browser when someone else saves it: the browser's save is answered
    # 409, the page again with what was typed and the summary saying why (focused), and sending it again saves.
    chromium = js_browser
    target = "/forms/account?user=grace"
    chromium.get(server.url(target))
    support.wait(chromium).until(lambda d: d.execute_script("return document.readyState") == "complete")
    network_exchanges(chromium)
    expect_script(chromium)
    with requests.Session() as other:
        page = other.get(server.url(target), timeout=support.HTTP_TIMEOUT)
        version = re.search(r'name="_version" value="([^"]+)"', page.text).group(1)
        saved = other.post(server.url(target), allow_redirects=False, timeout=support.HTTP_TIMEOUT,
                           data=[("_csrf", support.csrf_token(page.text)), ("_version", version),
                                 ("email", "grace@hopper.example"), ("plan", "free")])
        assert saved.status_code == 303

    email = chromium.find_element(By.ID, "fw-email")
    email.clear()
    email.send_keys("grace@navy.example")
    submit_button(chromium).click()
    wait_until(lambda: chromium.find_elements(By.ID, "fw-summary")
               and chromium.find_element(By.ID, "fw-summary").is_displayed(), message="the error summary")
    assert "Someone else saved this record" in chromium.find_element(By.ID, "fw-summary").text
    wait_until(lambda: support.active_element_id(chromium) == "fw-summary", message="focus on the summary")
    assert chromium.find_element(By.ID, "fw-email").get_attribute("value") == "grace@navy.example"
    [post] = posts_to(network_exchanges(chromium), "/forms/account")
    assert post.status == 409

    chromium.execute_script("window.__fwSameDocument = true")
    submit_button(chromium).click()
    wait_until(lambda: not same_document(chromium)
               and chromium.execute_script("return document.readyState") == "complete", message="the saved page")
    assert chromium.current_url == server.url(target)
    assert not chromium.find_elements(By.ID, "fw-summary")
    assert chromium.find_element(By.ID, "fw-email").get_attribute("value") == "grace@navy.example"


# ---------------------------------------------------------------------------------------------------------------
# Uploads over the server's limit


def test_a_file_over_the_limit_is_refused_when_chosen_and_never_sent(js_browser, server, tmp_path):
    """A file larger than the server's --max-file (1 MB, its default) is refused as soon as it is chosen, with
    the message the server would give; a submit then sends nothing and takes the reader to the upload. A file
    that fits clears the refusal and is sent."""
    chromium = js_browser
    open_form(chromium, server, "others")
    signature = b"\x89PNG\r\n\x1a\n"
    big, small = tmp_path / "big.png", tmp_path / "small.png"
    big.write_bytes(signature + b"x" * (1 << 20))
    small.write_bytes(signature + b"x" * 100)
    photo = chromium.find_element(By.ID, "fw-photo")
    assert photo.get_attribute("data-fw-max-bytes") == str(1 << 20)

    photo.send_keys(str(big))
    wait_until(lambda: photo.get_property("validationMessage") == "Photo must be a file of at most 1 MB",
               message="the page to refuse the file as it is chosen")
    submit_button(chromium).click()
    # The submit handler runs within the click: by its return the post was stopped, or it would be under way.
    assert chromium.switch_to.active_element == photo
    assert same_document(chromium)
    assert posts_to(network_exchanges(chromium), "/forms/others") == []

    photo.send_keys(str(small))
    wait_until(lambda: photo.get_property("validationMessage") == "", message="the refusal to clear")
    submit_button(chromium).click()
    wait_until(lambda: posts_to(network_exchanges(chromium), "/forms/others"), message="the post to be sent")
    assert_no_console_errors(chromium)
