"""A selector whose options come from an option source: the feedback form's city, searched among the
4,926 cities of Examples/formwright-examples/Data/cities.tsv. With JavaScript an ARIA combobox; without it
a search button, and the matches in a select."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

import support
from a11y import check
from support import click_and_wait_for_page, network_exchanges, posts_to, wait_until


def open_feedback(chromium, server):
    chromium.get(server.url("/forms/feedback"))
    support.wait(chromium).until(lambda d: d.execute_script("return document.readyState") == "complete")
    network_exchanges(chromium)


def submit(chromium):
    click_and_wait_for_page(chromium, chromium.find_element(By.CSS_SELECTOR, ".fw-actions button[type=submit]"))


def test_the_combobox_searches_as_one_types_and_chooses_by_keyboard(js_browser, server):
    chromium = js_browser
    open_feedback(chromium, server)
    city = chromium.find_element(By.ID, "fw-city")
    assert city.get_attribute("role") == "combobox" and city.get_attribute("aria-expanded") == "false"
    assert not chromium.find_element(By.CSS_SELECTOR, "button.fw-search-button").is_displayed()
    city.send_keys("zur")
    listbox = chromium.find_element(By.ID, "fw-city-listbox")
    wait_until(lambda: listbox.is_displayed(), message="the matches to show")
    titles = [item.text for item in listbox.find_elements(By.CSS_SELECTOR, "[role=option]")]
    assert titles[0] == "Zürich, Switzerland", titles
    assert city.get_attribute("aria-expanded") == "true"
    check(chromium, "/forms/feedback (the city's matches open)")
    city.send_keys(Keys.ARROW_DOWN)
    assert city.get_attribute("aria-activedescendant") == "fw-city-listbox-0"
    neighbourhood = chromium.find_element(By.ID, "fw-neighbourhood-row")
    assert not neighbourhood.is_displayed()
    city.send_keys(Keys.ENTER)  # chooses; does not send the form
    assert city.get_attribute("value") == "Zürich, Switzerland"
    assert city.get_attribute("aria-expanded") == "false"
    # The rules read the choice: a row shown once a city is chosen, hidden again when it is taken back.
    wait_until(lambda: neighbourhood.is_displayed(), message="the neighbourhood row to show")
    city.send_keys("x")
    wait_until(lambda: not neighbourhood.is_displayed(), message="the neighbourhood row to hide")
    city.send_keys(Keys.CONTROL + "a")  # a call of its own: the modifier is held until the call ends
    city.send_keys("zur")
    wait_until(lambda: chromium.find_element(By.ID, "fw-city-listbox").is_displayed(), message="matches again")
    city.send_keys(Keys.ARROW_DOWN, Keys.ENTER)
    chromium.find_element(By.ID, "fw-stars-2").click()
    submit(chromium)
    [sent] = posts_to(network_exchanges(chromium), "/forms/feedback")
    assert sent.status == 303
    assert sent.values("city") == ["2657896"]  # Zürich's GeoNames id, confirmed by the source


def test_typing_after_a_choice_takes_it_back(js_browser, server):
    chromium = js_browser
    open_feedback(chromium, server)
    city = chromium.find_element(By.ID, "fw-city")
    city.send_keys("paris")
    wait_until(lambda: chromium.find_element(By.ID, "fw-city-listbox").is_displayed(), message="matches")
    chromium.find_element(By.ID, "fw-city-listbox-0").click()
    assert city.get_attribute("value") == "Paris, France"
    city.send_keys("x")
    chromium.find_element(By.ID, "fw-stars-0").click()
    submit(chromium)
    [sent] = posts_to(network_exchanges(chromium), "/forms/feedback")
    assert sent.status == 303 and sent.values("city") == [""]


def test_without_script_a_search_button_brings_the_matches(nojs_browser, server):
    chromium = nojs_browser
    open_feedback(chromium, server)
    chromium.find_element(By.ID, "fw-city").send_keys("lyon")
    chromium.find_element(By.ID, "fw-stars-3").click()
    click_and_wait_for_page(chromium, chromium.find_element(By.CSS_SELECTOR, "button.fw-search-button"))
    [searched] = posts_to(network_exchanges(chromium), "/forms/feedback")
    assert searched.status == 200
    # Nothing is judged yet: no summary; what was chosen stays chosen.
    assert not chromium.find_elements(By.ID, "fw-summary")
    assert chromium.find_element(By.ID, "fw-stars-3").is_selected()
    matches = Select(chromium.find_element(By.ID, "fw-city-choice"))
    assert [o.text for o in matches.options][:2] == ["Choose…", "Lyon, France"]
    assert chromium.find_element(By.CSS_SELECTOR, "label[for=fw-city-choice]").text == "Matches for Your city"
    matches.select_by_visible_text("Lyon, France")
    submit(chromium)
    [sent] = posts_to(network_exchanges(chromium), "/forms/feedback")
    assert sent.status == 303 and sent.values("city") == ["2996944"]


def test_without_script_a_search_that_finds_nothing_says_so(nojs_browser, server):
    chromium = nojs_browser
    open_feedback(chromium, server)
    chromium.find_element(By.ID, "fw-city").send_keys("qqqq")
    click_and_wait_for_page(chromium, chromium.find_element(By.CSS_SELECTOR, "button.fw-search-button"))
    note = chromium.find_element(By.CSS_SELECTOR, ".fw-search-note")
    assert note.get_attribute("role") == "status"
    assert note.text == "Nothing matches “qqqq”: try fewer letters or another spelling"
    assert not chromium.find_element(By.ID, "fw-city-choice").is_displayed()
