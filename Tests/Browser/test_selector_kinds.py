"""What the page script adds to a selector or a step counter, and what the page is without it: a filter
before a long select, − and + beside a step counter."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

import support
from a11y import check
from support import wait_until


def open_page(chromium, server, form_id):
    chromium.get(server.url(f"/forms/{form_id}"))
    support.wait(chromium).until(lambda d: d.execute_script("return document.readyState") == "complete")


def test_a_long_select_gets_a_filter_that_keeps_the_choice(js_browser, server):
    chromium = js_browser
    open_page(chromium, server, "selectors")
    select = chromium.find_element(By.ID, "fw-timezone")
    search = chromium.find_element(By.CSS_SELECTOR, "input.fw-filter[aria-controls=fw-timezone]")
    assert search.get_attribute("aria-label") == "Search Time zone"
    Select(select).select_by_value("UTC")
    search.send_keys("tokyo")
    shown = lambda: [o.get_attribute("value") for o in Select(select).options
                     if not chromium.execute_script("return arguments[0].hidden", o)]
    wait_until(lambda: shown() == ["", "Asia/Tokyo", "UTC"], message="only Tokyo, the empty choice and the chosen one")
    # The filter is no value of the row: its condition reads the select alone.
    offset = chromium.find_element(By.ID, "fw-offset-row")
    assert not offset.is_displayed()
    Select(select).select_by_value("Asia/Tokyo")
    wait_until(lambda: offset.is_displayed(), message="the offset row to show for Tokyo")
    assert search.get_attribute("required") is None
    # The short selects get no filter.
    assert len(chromium.find_elements(By.CSS_SELECTOR, "input.fw-filter")) == 1
    check(chromium, "/forms/selectors (with a filter)")


def test_a_step_counter_steps_with_its_buttons(js_browser, server):
    chromium = js_browser
    open_page(chromium, server, "others")
    count = chromium.find_element(By.ID, "fw-count")
    plus = chromium.find_element(By.CSS_SELECTOR, "button.fw-step[aria-label='Increase Tickets']")
    minus = chromium.find_element(By.CSS_SELECTOR, "button.fw-step[aria-label='Decrease Tickets']")
    assert plus.is_displayed() and minus.is_displayed()
    assert count.get_attribute("value") == "1"
    plus.click()
    plus.click()
    wait_until(lambda: count.get_attribute("value") == "3", message="two steps up")
    minus.click()
    minus.click()
    minus.click()
    # The input's min (1) stops it, as its own arrows would.
    wait_until(lambda: count.get_attribute("value") == "1", message="back down to the minimum")
    check(chromium, "/forms/others (with step buttons)")


def test_without_script_the_controls_are_the_browsers_own(nojs_browser, server):
    chromium = nojs_browser
    open_page(chromium, server, "others")
    assert not any(b.is_displayed() for b in chromium.find_elements(By.CSS_SELECTOR, "button.fw-step"))
    open_page(chromium, server, "selectors")
    assert not chromium.find_elements(By.CSS_SELECTOR, "input.fw-filter")
    assert len(Select(chromium.find_element(By.ID, "fw-timezone")).options) == 20
    # An action sheet is a list of radio buttons, each visible.
    sheet = chromium.find_elements(By.CSS_SELECTOR, "#fw-sheet input[type=radio]")
    assert len(sheet) == 2 and all(radio.is_displayed() for radio in sheet)
