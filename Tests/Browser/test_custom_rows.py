"""The examples' own row types (Examples/formwright-examples/ExampleRowTypes.swift) on the feedback form: a
star rating and a location, with and without JavaScript. axe and the W3C checker see the form with the
other example forms (support.SWIFT_FORMS)."""

from __future__ import annotations

from selenium.webdriver.common.by import By

import support
from a11y import check
from support import click_and_wait_for_page, network_exchanges, posts_to, wait_until


def submit_button(chromium):
    return chromium.find_element(By.CSS_SELECTOR, ".fw-actions button[type=submit]")


def open_feedback(chromium, server):
    chromium.get(server.url("/forms/feedback"))
    support.wait(chromium).until(lambda d: d.execute_script("return document.readyState") == "complete")
    network_exchanges(chromium)  # drop the GET's entries


def test_rating_and_location_without_script(nojs_browser, server):
    chromium = nojs_browser
    open_feedback(chromium, server)
    # No script, no "use my location" button: the location is typed.
    assert not chromium.find_elements(By.CSS_SELECTOR, ".fw-location-button")
    stars = chromium.find_element(By.ID, "fw-stars")
    assert stars.tag_name == "fieldset" and stars.get_attribute("data-rating") == "stars"
    assert [label.text for label in stars.find_elements(By.TAG_NAME, "label")] == [
        "1 star", "2 stars", "3 stars", "4 stars", "5 stars"]
    # A location the type's decoder refuses is the row's error, and what was typed stays.
    chromium.find_element(By.ID, "fw-stars-3").click()  # the segment: the radio lies over its label
    chromium.find_element(By.ID, "fw-where").send_keys("north of here")
    click_and_wait_for_page(chromium, submit_button(chromium))
    [refused] = posts_to(network_exchanges(chromium), "/forms/feedback")
    assert refused.status == 422
    support.assert_summary_with_inline_errors(chromium, ["fw-where"])
    assert "Enter a latitude and a longitude" in chromium.find_element(By.ID, "fw-where-error").text
    assert chromium.find_element(By.ID, "fw-where").get_attribute("value") == "north of here"
    assert chromium.find_element(By.ID, "fw-stars-3").is_selected()
    # Typed right, it is accepted.
    where = chromium.find_element(By.ID, "fw-where")
    where.clear()
    where.send_keys("48.8566, 2.3522")
    click_and_wait_for_page(chromium, submit_button(chromium))
    [sent] = posts_to(network_exchanges(chromium), "/forms/feedback")
    assert sent.status == 303
    assert sent.values("stars") == ["4"] and sent.values("where") == ["48.8566, 2.3522"]


def test_use_my_location_fills_the_location_from_the_browser(js_browser, server):
    chromium = js_browser
    origin = server.url("/").rstrip("/")
    chromium.execute_cdp_cmd("Browser.grantPermissions", {"origin": origin, "permissions": ["geolocation"]})
    chromium.execute_cdp_cmd("Emulation.setGeolocationOverride",
                             {"latitude": 51.5007, "longitude": -0.1246, "accuracy": 10})
    try:
        open_feedback(chromium, server)
        button = support.wait(chromium).until(
            lambda d: d.find_element(By.CSS_SELECTOR, "#fw-where ~ .fw-location-button"))
        assert button.text == "Use my location" and button.get_attribute("type") == "button"
        check(chromium, "/forms/feedback (with its location button)")
        button.click()
        where = chromium.find_element(By.ID, "fw-where")
        wait_until(lambda: where.get_attribute("value") == "51.50070, -0.12460", message="the location to be filled")
        chromium.find_element(By.ID, "fw-stars-4").click()
        click_and_wait_for_page(chromium, submit_button(chromium))
        [sent] = posts_to(network_exchanges(chromium), "/forms/feedback")
        assert sent.status == 303
        assert sent.values("where") == ["51.50070, -0.12460"] and sent.values("stars") == ["5"]
    finally:
        chromium.execute_cdp_cmd("Emulation.clearGeolocationOverride", {})
        chromium.execute_cdp_cmd("Browser.resetPermissions", {})


def test_a_denied_location_is_said_and_the_input_still_typed(js_browser, server):
    chromium = js_browser
    origin = server.url("/").rstrip("/")
    chromium.execute_cdp_cmd("Browser.setPermission",
                             {"origin": origin, "permission": {"name": "geolocation"}, "setting": "denied"})
    try:
        open_feedback(chromium, server)
        button = support.wait(chromium).until(lambda d: d.find_element(By.CSS_SELECTOR, ".fw-location-button"))
        button.click()
        status = chromium.find_element(By.CSS_SELECTOR, ".fw-location-status")
        assert status.get_attribute("role") == "status"
        wait_until(lambda: status.text == "Your location is not available: type it instead",
                   message="the refusal to be said")
        assert chromium.find_element(By.ID, "fw-where").get_attribute("value") == ""
    finally:
        chromium.execute_cdp_cmd("Browser.resetPermissions", {})
