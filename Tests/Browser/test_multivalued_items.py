"""Multivalued sections whose items are choices or booleans (Tests/Browser/forms/mvt.yaml), the focus after a
no-script "Add another" (Forms/multivalued.yaml), and item errors in the summary (Tests/Browser/forms/mvd.yaml).

Every item is one control posting one value under the multivalued tag, so what the browser posts keeps every
item's position: segmented items are drop-down selects (radios named alike are one group across all items) and
boolean items are No / Yes selects (an unticked box posts nothing)."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

import support
from a11y import check
from support import click_and_wait_for_page, network_exchanges, posts_to, wait_until


def open_form(chromium, server, form_id):
    chromium.get(server.url(f"/forms/{form_id}"))
    support.wait(chromium).until(lambda d: d.execute_script("return document.readyState") == "complete")
    network_exchanges(chromium)  # each test reads only what its own actions sent


def selects(chromium, tag):
    return chromium.find_elements(By.CSS_SELECTOR, f"[data-fw-multivalued={tag}] .fw-item select[name={tag}]")


def chosen(chromium, tag):
    return [Select(s).first_selected_option.get_attribute("value") for s in selects(chromium, tag)]


def action(chromium, tag, index, name):
    items = chromium.find_elements(By.CSS_SELECTOR, f"[data-fw-multivalued={tag}] .fw-item")
    return items[index].find_element(By.CSS_SELECTOR, f"[data-fw-action={name}]")


def press(chromium, element, key):
    chromium.execute_script("arguments[0].focus()", element)
    assert chromium.switch_to.active_element == element, "the control did not take focus"
    element.send_keys(key)


def submit_button(chromium):
    return chromium.find_element(By.CSS_SELECTOR, ".fw-actions button[type=submit]")


def payload_of(chromium, server, form_id, post):
    """What the server makes of the body the browser posted, asked for as JSON with the browser's cookie."""
    response = support.post_as_api(support.browser_session(chromium), server.url(f"/forms/{form_id}"),
                                   post.form_pairs())
    assert response.status_code == 200, response.text
    return response.json()["httpParameters"]


def test_fresh_segmented_and_boolean_items_post_every_position_without_script(nojs_browser, fixture_server):
    chromium = nojs_browser
    open_form(chromium, fixture_server, "mvt")
    assert chosen(chromium, "sizes") == ["S", "L"]
    assert chosen(chromium, "flags") == ["true", "false", "true"]
    click_and_wait_for_page(chromium, submit_button(chromium))

    [post] = posts_to(network_exchanges(chromium), "/forms/mvt")
    assert post.status == 303
    assert post.values("sizes") == ["S", "L"]
    assert post.values("flags") == ["true", "false", "true"]
    parameters = payload_of(chromium, fixture_server, "mvt", post)
    assert parameters["sizes"] == ["S", "L"]
    assert parameters["flags"] == [True, False, True]


def test_segmented_items_add_remove_reorder_in_the_page_post_in_order(js_browser, fixture_server):
    chromium = js_browser
    open_form(chromium, fixture_server, "mvt")
    wait_until(lambda: all(b.is_displayed() for b in chromium.find_elements(By.CSS_SELECTOR, "[data-fw-action]")),
               message="forms.js to reveal Remove / Move up / Move down")
    assert chosen(chromium, "sizes") == ["S", "L"]

    # Choosing in one item leaves the others as they are.
    Select(selects(chromium, "sizes")[1]).select_by_value("M")
    assert chosen(chromium, "sizes") == ["S", "M"]

    add = chromium.find_element(By.CSS_SELECTOR, "[data-fw-multivalued=sizes] button.fw-add")
    press(chromium, add, Keys.ENTER)
    wait_until(lambda: chosen(chromium, "sizes") == ["S", "M", ""], message="a fresh third item")
    # The new item has focus, as "Add another" promises a keyboard user.
    assert support.active_element_id(chromium) == "fw-sizes-2"
    Select(selects(chromium, "sizes")[2]).select_by_value("L")

    press(chromium, action(chromium, "sizes", 2, "up"), Keys.ENTER)
    wait_until(lambda: chosen(chromium, "sizes") == ["S", "L", "M"], message="the third item moved up")
    press(chromium, action(chromium, "sizes", 0, "remove"), Keys.ENTER)
    wait_until(lambda: chosen(chromium, "sizes") == ["L", "M"], message="the first item removed")

    # Items keep ids of their own, in order, each select labelled once, "Size 1", "Size 2".
    items = chromium.execute_script(
        "return [...document.querySelectorAll('[data-fw-multivalued=sizes] .fw-item select')]"
        ".map(s => [s.id, [...s.labels].map(l => l.textContent.trim())])")
    assert items == [["fw-sizes-0", ["Size 1"]], ["fw-sizes-1", ["Size 2"]]]
    assert chromium.execute_script(
        "const all = [...document.querySelectorAll('[id]')].map(e => e.id); return new Set(all).size === all.length")

    # A boolean item added in the page starts blank, as the server's fresh item does: blank is no item.
    press(chromium, chromium.find_element(By.CSS_SELECTOR, "[data-fw-multivalued=flags] button.fw-add"), Keys.ENTER)
    wait_until(lambda: chosen(chromium, "flags") == ["true", "false", "true", ""], message="a fourth flag")
    press(chromium, chromium.find_element(By.CSS_SELECTOR, "[data-fw-multivalued=flags] button.fw-add"), Keys.ENTER)
    wait_until(lambda: chosen(chromium, "flags") == ["true", "false", "true", "", ""], message="a fifth flag")
    Select(selects(chromium, "flags")[1]).select_by_value("true")
    Select(selects(chromium, "flags")[4]).select_by_value("false")
    check(chromium, "/forms/mvt after adding, moving and removing items")

    submit_button(chromium).click()
    wait_until(lambda: support.is_thanks(chromium.current_url, fixture_server.url("/forms/mvt/thanks")), message="the thank-you page")
    [post] = posts_to(network_exchanges(chromium), "/forms/mvt")
    assert post.status == 303
    assert post.values("sizes") == ["L", "M"]
    assert post.values("flags") == ["true", "true", "true", "", "false"]
    parameters = payload_of(chromium, fixture_server, "mvt", post)
    assert parameters["sizes"] == ["L", "M"]
    assert parameters["flags"] == [True, True, True, False]


def test_a_boolean_item_added_without_script_can_be_left_out(nojs_browser, fixture_server):
    # With no script there is no Remove button: an item added by mistake is undone by leaving it blank.
    chromium = nojs_browser
    chromium.get(fixture_server.url("/forms/mvt"))
    old = chromium.find_element(By.TAG_NAME, "html")
    chromium.find_element(By.CSS_SELECTOR, "[data-fw-multivalued=flags] button[name=_add]").click()
    support.wait(chromium).until(lambda _: support.is_gone(old))
    assert chosen(chromium, "flags") == ["true", "false", "true", ""]
    network_exchanges(chromium)  # drop the "Add another" round trip's entries
    old = chromium.find_element(By.TAG_NAME, "html")
    chromium.find_element(By.ID, "fw-form").submit()
    support.wait(chromium).until(lambda _: support.is_gone(old))
    [post] = posts_to(network_exchanges(chromium), "/forms/mvt")
    assert post.values("flags") == ["true", "false", "true", ""]
    assert payload_of(chromium, fixture_server, "mvt", post)["flags"] == [True, False, True]


def test_add_another_without_script_puts_focus_on_the_new_item(nojs_browser, server):
    chromium = nojs_browser
    open_form(chromium, server, "multivalued")
    add = chromium.find_element(By.CSS_SELECTOR, "button[name=_add]")
    chromium.execute_script("arguments[0].focus()", add)
    old = chromium.find_element(By.TAG_NAME, "html")
    add.send_keys(Keys.ENTER)
    support.wait(chromium).until(lambda _: support.is_gone(old))
    support.wait(chromium).until(lambda d: d.execute_script("return document.readyState") == "complete")
    [post] = posts_to(network_exchanges(chromium), "/forms/multivalued")
    assert post.status == 200 and post.values("_add") == ["tags"]

    # Focus is on the new, empty third item, not on <body> at the top of the page: typing goes there.
    assert support.active_element_id(chromium) == "fw-tags-2"
    assert chromium.execute_script("return document.querySelectorAll('[autofocus]').length") == 1
    chromium.switch_to.active_element.send_keys("ui")
    values = [e.get_attribute("value") for e in chromium.find_elements(By.CSS_SELECTOR, ".fw-item input[name=tags]")]
    assert values == ["swift", "forms", "ui"]


def test_item_errors_name_their_item_in_the_summary(nojs_browser, fixture_server):
    chromium = nojs_browser
    open_form(chromium, fixture_server, "mvd")
    second = chromium.find_element(By.ID, "fw-tags-1")
    second.clear()
    second.send_keys("not-an-address")
    click_and_wait_for_page(chromium, chromium.find_element(By.CSS_SELECTOR, "button[name=_add]"))
    [add] = posts_to(network_exchanges(chromium), "/forms/mvd")
    assert add.status == 200
    chromium.find_element(By.ID, "fw-tags-2").send_keys("nor-this-one")
    click_and_wait_for_page(chromium, submit_button(chromium))

    [post] = posts_to(network_exchanges(chromium), "/forms/mvd")
    assert post.status == 422
    support.assert_summary_with_inline_errors(chromium, ["fw-c", "fw-tags-1", "fw-tags-2"])
    links = [a.text for a in chromium.find_elements(By.CSS_SELECTOR, "#fw-summary a")]
    assert links == ["C can't be empty", "Address 2 must be a valid email address",
                     "Address 3 must be a valid email address"]
    # Each item's label is what its message calls it.
    assert chromium.find_element(By.CSS_SELECTOR, "label[for=fw-tags-2]").text == "Address 3"
