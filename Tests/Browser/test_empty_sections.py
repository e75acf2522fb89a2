"""A section whose rows are all hidden hides with them (Tests/Browser/forms/sections.yaml): drawn, it would be an
empty card, and an empty unnamed group to a screen reader. The server draws it hidden; forms.js hides and shows
it live as its rows go and come back."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import support
from support import wait_until


def displayed(chromium, element_id):
    return chromium.find_element(By.ID, element_id).is_displayed()


def test_the_server_draws_a_section_of_hidden_rows_hidden(nojs_browser, fixture_server):
    chromium = nojs_browser
    chromium.get(fixture_server.url("/forms/sections"))
    assert chromium.find_element(By.ID, "fw-section_1").get_attribute("hidden") == "true"
    assert displayed(chromium, "fw-section_0") and displayed(chromium, "fw-section_2")


def test_the_section_follows_its_rows_live(js_browser, fixture_server):
    chromium = js_browser
    chromium.get(fixture_server.url("/forms/sections"))
    support.wait(chromium).until(lambda d: d.execute_script("return document.readyState") == "complete")
    assert not displayed(chromium, "fw-section_1")
    switch = chromium.find_element(By.ID, "fw-show")
    chromium.execute_script("arguments[0].focus()", switch)
    switch.send_keys(Keys.SPACE)
    wait_until(lambda: displayed(chromium, "fw-section_1"), message="the section to appear with its rows")
    assert displayed(chromium, "fw-d1") and displayed(chromium, "fw-d2")
    switch.send_keys(Keys.SPACE)
    wait_until(lambda: not displayed(chromium, "fw-section_1"), message="the section to hide with its rows")
    assert displayed(chromium, "fw-section_2")
