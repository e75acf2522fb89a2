"""The forms without JavaScript: every verdict comes from the server, by a full page round trip."""

from __future__ import annotations

import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

import pages
import support
from support import click_and_wait_for_page, network_exchanges, posts_to, set_value


def submit_button(chromium):
    return chromium.find_element(By.CSS_SELECTOR, ".fw-actions button[type=submit]")


def open_form(chromium, server, form_id):
    chromium.get(server.url(f"/forms/{form_id}"))
    network_exchanges(chromium)  # drop the GET's entries: each test reads only what its own clicks sent


def test_empty_event_is_refused_with_summary_and_inline_errors(nojs_browser, server):
    chromium = nojs_browser
    open_form(chromium, server, "event")
    chromium.find_element(By.ID, "fw-location").send_keys("Room 4")
    click_and_wait_for_page(chromium, submit_button(chromium))

    [post] = posts_to(network_exchanges(chromium), "/forms/event")
    assert post.status == 422
    assert chromium.current_url == server.url("/forms/event")
    support.assert_summary_with_inline_errors(chromium, ["fw-title", "fw-starts", "fw-ends"])
    # Focus lands on the summary with no script (autofocus), so a screen reader starts there.
    assert support.active_element_id(chromium) == "fw-summary"
    # Values are kept.
    assert chromium.find_element(By.ID, "fw-location").get_attribute("value") == "Room 4"
    # A field that is fine is not marked.
    assert chromium.find_element(By.ID, "fw-location").get_attribute("aria-invalid") is None

    # Following a summary link moves to its field.
    chromium.find_element(By.CSS_SELECTOR, "#fw-summary a[href='#fw-starts']").click()
    assert support.active_element_id(chromium) == "fw-starts"


def test_filled_event_goes_to_thanks(nojs_browser, server):
    chromium = nojs_browser
    open_form(chromium, server, "event")
    chromium.find_element(By.ID, "fw-title").send_keys("Team lunch")
    set_value(chromium, chromium.find_element(By.ID, "fw-starts"), "2026-11-23T12:00")
    set_value(chromium, chromium.find_element(By.ID, "fw-ends"), "2026-11-23T13:00")
    click_and_wait_for_page(chromium, submit_button(chromium))

    exchanges = network_exchanges(chromium)
    [post] = posts_to(exchanges, "/forms/event")
    assert post.status == 303
    assert post.values("title") == ["Team lunch"]
    assert support.is_thanks(chromium.current_url, server.url("/forms/event/thanks"))
    assert chromium.find_element(By.TAG_NAME, "h1").text == "Thank you"


def test_server_hides_the_second_alert_when_alert_is_never(nojs_browser, server):
    chromium = nojs_browser
    open_form(chromium, server, "event")
    second_row = chromium.find_element(By.ID, "fw-second_alert-row")
    assert not second_row.is_displayed()  # alert is "never" by default

    # Choose an alert; the title stays empty so that the server answers with the page again.
    Select(chromium.find_element(By.ID, "fw-alert")).select_by_value("15m")
    click_and_wait_for_page(chromium, submit_button(chromium))
    [post] = posts_to(network_exchanges(chromium), "/forms/event")
    assert post.status == 422
    assert chromium.find_element(By.ID, "fw-second_alert-row").is_displayed()

    # Now a second alert, and alert back to "never": the browser posts both, the server hides the second.
    Select(chromium.find_element(By.ID, "fw-second_alert")).select_by_value("5m")
    Select(chromium.find_element(By.ID, "fw-alert")).select_by_value("never")
    click_and_wait_for_page(chromium, submit_button(chromium))
    [post] = posts_to(network_exchanges(chromium), "/forms/event")
    assert post.status == 422
    assert post.values("alert") == ["never"]
    assert post.values("second-alert") == ["5m"]
    assert not chromium.find_element(By.ID, "fw-second_alert-row").is_displayed()
    # The hidden row is not judged: the summary names only the empty required fields.
    support.assert_summary_with_inline_errors(chromium, ["fw-title", "fw-starts", "fw-ends"])

    # The same body, completed, through the API: the second alert is left out of the payload.
    pairs = [(k, v) for k, v in post.form_pairs() if k not in ("title", "starts", "ends")]
    pairs += [("title", "Review"), ("starts", "2026-11-23T12:00"), ("ends", "2026-11-23T13:00")]
    response = support.post_as_api(support.browser_session(chromium), server.url("/forms/event"), pairs)
    assert response.status_code == 200, response.text
    payload = response.json()
    assert payload["httpParameters"]["alert"] == "never"
    assert "second-alert" not in payload["httpParameters"]
    assert "second-alert" not in payload["formValues"]


def item_values(chromium):
    return [e.get_attribute("value") for e in chromium.find_elements(By.CSS_SELECTOR, ".fw-item input[name=tags]")]


def test_multivalued_add_another_round_trip_keeps_order(nojs_browser, server):
    chromium = nojs_browser
    open_form(chromium, server, "multivalued")
    assert item_values(chromium) == ["swift", "forms"]
    # Without scripts the Remove / Move buttons stay hidden: nothing on the page is a dead button.
    actions = chromium.find_elements(By.CSS_SELECTOR, "[data-fw-action]")
    assert actions and not any(a.is_displayed() for a in actions)

    inputs = chromium.find_elements(By.CSS_SELECTOR, ".fw-item input[name=tags]")
    for element, text in zip(inputs, ["zeta", "alpha"]):
        element.clear()
        element.send_keys(text)
    click_and_wait_for_page(chromium, chromium.find_element(By.CSS_SELECTOR, "button[name=_add]"))

    [post] = posts_to(network_exchanges(chromium), "/forms/multivalued")
    assert post.values("_add") == ["tags"]
    assert post.status == 200
    # One more item, empty, after the posted ones, in the posted order.
    assert item_values(chromium) == ["zeta", "alpha", ""]
    labels = [e.text for e in chromium.find_elements(By.CSS_SELECTOR, ".fw-item label")]
    assert labels == ["Tag 1", "Tag 2", "Tag 3"]
    third = chromium.find_elements(By.CSS_SELECTOR, ".fw-item input[name=tags]")[2]
    assert third.get_attribute("id") == "fw-tags-2"
    third.send_keys("mid")

    click_and_wait_for_page(chromium, submit_button(chromium))
    [post] = posts_to(network_exchanges(chromium), "/forms/multivalued")
    assert post.status == 303
    assert post.values("tags") == ["zeta", "alpha", "mid"]
    assert support.is_thanks(chromium.current_url, server.url("/forms/multivalued/thanks"))

    # What the server makes of that body: the payload keeps the posted order (the page's cookie and token).
    response = support.post_as_api(support.browser_session(chromium), server.url("/forms/multivalued"),
                                   post.form_pairs())
    assert response.status_code == 200, response.text
    assert response.json()["httpParameters"] == {"tags": ["zeta", "alpha", "mid"]}


def test_multivalued_payload_order_through_the_api(http, server):
    """The brief's direct check: the page's token and cookie, posted by requests with Accept: application/json."""
    page = http.get(server.url("/forms/multivalued"), timeout=support.HTTP_TIMEOUT)
    token = support.csrf_token(page.text)
    pairs = [("_csrf", token), ("tags", "c"), ("tags", "a"), ("tags", ""), ("tags", "b")]
    response = support.post_as_api(http, server.url("/forms/multivalued"), pairs)
    assert response.status_code == 200, response.text
    # Empty items are dropped, the rest keep the posted order.
    assert response.json()["httpParameters"] == {"tags": ["c", "a", "b"]}
    # Without the cookie the same token is refused: the check above did pass through CSRF.
    bare = support.post_as_api(requests.Session(), server.url("/forms/multivalued"), pairs)
    assert bare.status_code == 403


def test_enter_in_a_tag_submits_rather_than_adds(nojs_browser, server):
    """Implicit submission uses the form's first submit button: the page puts a hidden plain Submit before
    "Add another", so Enter in a field sends the form instead of adding an item."""
    chromium = nojs_browser
    open_form(chromium, server, "multivalued")
    field = chromium.find_elements(By.CSS_SELECTOR, ".fw-item input[name=tags]")[1]
    old = chromium.find_element(By.TAG_NAME, "html")
    field.send_keys("-ui", Keys.ENTER)
    support.wait(chromium).until(lambda _: support.is_gone(old))
    [post] = posts_to(network_exchanges(chromium), "/forms/multivalued")
    assert post.values("_add") == []
    assert post.values("tags") == ["swift", "forms-ui"]
    assert post.status == 303


def test_add_another_after_a_refused_item_keeps_the_items_type(nojs_browser, fixture_server):
    chromium = nojs_browser
    post = pages.post_in_browser(chromium, fixture_server, "items", [("code", "z"), ("emails", "x"), ("seats", "abc")])
    assert post.status == 422
    assert chromium.find_element(By.ID, "fw-emails-0").get_attribute("type") == "text"  # refused, shown as typed

    click_and_wait_for_page(chromium, chromium.find_element(By.CSS_SELECTOR, "[data-fw-multivalued=emails] .fw-add"))
    [post] = posts_to(network_exchanges(chromium), "/forms/items")
    assert post.status == 200
    assert chromium.find_element(By.ID, "fw-emails-0").get_attribute("value") == "x"
    assert chromium.find_element(By.ID, "fw-emails-1").get_attribute("type") == "email"

    click_and_wait_for_page(chromium, chromium.find_element(By.CSS_SELECTOR, "[data-fw-multivalued=seats] .fw-add"))
    seat = chromium.find_element(By.ID, "fw-seats-1")
    assert [seat.get_attribute(a) for a in ("type", "min", "max", "step")] == ["number", "1", "9", "2"]

    click_and_wait_for_page(chromium, chromium.find_element(By.CSS_SELECTOR, "[data-fw-multivalued=guests] .fw-add"))
    assert chromium.find_element(By.ID, "fw-guests-0").get_attribute("type") == "email"


def test_slider_outputs_show_the_browsers_default_without_script(nojs_browser, fixture_server):
    chromium = nojs_browser
    chromium.get(fixture_server.url("/forms/sliders"))
    # No value: the browser puts a slider at HTML's range default, and the server's output says where.
    for tag, expected in (("vol", "5"), ("level", "6"), ("plain", "50"), ("fine", "1.5")):
        slider = chromium.find_element(By.ID, f"fw-{tag}")
        assert slider.get_dom_attribute("value") is None
        assert slider.get_property("value") == expected, tag
        assert chromium.find_element(By.ID, f"fw-{tag}-output").text == expected, tag


def test_slider_outputs_show_the_value_the_browser_holds_without_script(nojs_browser, fixture_server):
    chromium = nojs_browser
    open_form(chromium, fixture_server, "sliders")
    # A value off its step or past a bound: the browser sanitizes it (HTML's range state), and the server's
    # output must say what the slider then holds, and posts: 7 with step 5 from 0 is 5, not 7.
    expected = {"snapped": "5", "above": "100", "unbased": "7", "over": "98", "under": "2"}
    for tag, value in expected.items():
        slider = chromium.find_element(By.ID, f"fw-{tag}")
        assert slider.get_property("value") == value, tag
        assert chromium.find_element(By.ID, f"fw-{tag}-output").text == value, tag
    # And what the form posts is what the outputs said.
    click_and_wait_for_page(chromium, submit_button(chromium))
    [post] = posts_to(network_exchanges(chromium), "/forms/sliders")
    assert {tag: post.values(tag) for tag in expected} == {tag: [value] for tag, value in expected.items()}


def test_a_file_over_the_file_limit_is_its_rows_error_and_the_rest_is_kept(nojs_browser, server, tmp_path):
    """Without a script nothing stops a file over --max-file (1 MB) from being sent. The body limit, left to
    its default, carries it (2 MB with the example forms' one upload row), so the page comes back with the
    photo's own error and what else was typed, not a refusal of the whole post."""
    chromium = nojs_browser
    open_form(chromium, server, "others")
    big = tmp_path / "big.png"
    big.write_bytes(b"\x89PNG\r\n\x1a\n" + b"x" * (1 << 20))
    count = chromium.find_element(By.ID, "fw-count")
    count.clear()
    count.send_keys("3")
    chromium.find_element(By.ID, "fw-photo").send_keys(str(big))
    click_and_wait_for_page(chromium, submit_button(chromium))

    [post] = posts_to(network_exchanges(chromium), "/forms/others")
    assert post.status == 422
    assert "Photo must be a file of at most 1 MB" in chromium.find_element(By.ID, "fw-photo-error").text
    assert chromium.find_element(By.ID, "fw-count").get_attribute("value") == "3"


def test_a_valid_file_beside_an_invalid_row_is_kept_for_the_next_post(nojs_browser, server, tmp_path):
    """A post refused for another row keeps its valid file: the page names it beside the input, and the
    next post sends it without the reader choosing it again (the server holds it in its store)."""
    chromium = nojs_browser
    open_form(chromium, server, "others")
    photo = tmp_path / "cat.png"
    photo.write_bytes(b"\x89PNG\r\n\x1a\n" + b"cat")
    count = chromium.find_element(By.ID, "fw-count")
    count.clear()
    count.send_keys("11")  # one more than the row's max
    chromium.find_element(By.ID, "fw-photo").send_keys(str(photo))
    click_and_wait_for_page(chromium, submit_button(chromium))

    [post] = posts_to(network_exchanges(chromium), "/forms/others")
    assert post.status == 422
    assert "cat.png (11 bytes) is kept" in chromium.find_element(By.ID, "fw-photo-held").text
    assert chromium.find_element(By.ID, "fw-photo").get_attribute("aria-describedby") == "fw-photo-held"
    count = chromium.find_element(By.ID, "fw-count")
    count.clear()
    count.send_keys("2")
    click_and_wait_for_page(chromium, submit_button(chromium))

    [post] = posts_to(network_exchanges(chromium), "/forms/others")
    assert post.status == 303
    assert support.is_thanks(chromium.current_url, server.url("/forms/others/thanks"))


def test_a_post_over_the_body_limit_shows_a_page_that_says_so(nojs_browser, server, tmp_path):
    """A post over --max-body (2 MB with the example forms) cannot be read at all: it is refused whole, and
    the browser shows the server's page naming the limit, not a broken connection or plain text."""
    chromium = nojs_browser
    open_form(chromium, server, "others")
    big = tmp_path / "big.png"
    big.write_bytes(b"\x89PNG\r\n\x1a\n" + b"x" * (3 << 20))
    chromium.find_element(By.ID, "fw-photo").send_keys(str(big))
    click_and_wait_for_page(chromium, submit_button(chromium))

    [post] = posts_to(network_exchanges(chromium), "/forms/others")
    assert post.status == 413
    assert chromium.find_element(By.TAG_NAME, "h1").text == "Too large to send"
    assert "2 MB at most" in chromium.find_element(By.TAG_NAME, "main").text


def test_an_answer_is_changed_through_the_thank_you_pages_link(nojs_browser, server, tmp_path):
    """An editable form (Forms/reunion.yaml): the thank-you page links to the form filled with what was sent,
    its file named beside its input; changing a value and sending saves it, the file kept unchosen."""
    chromium = nojs_browser
    open_form(chromium, server, "reunion")
    ticket = tmp_path / "ticket.pdf"
    ticket.write_bytes(b"%PDF-1.4 ticket")
    chromium.find_element(By.ID, "fw-name").send_keys("Ada")
    chromium.find_element(By.ID, "fw-email").send_keys("ada@example.org")
    chromium.find_element(By.ID, "fw-ticket").send_keys(str(ticket))
    click_and_wait_for_page(chromium, submit_button(chromium))
    [post] = posts_to(network_exchanges(chromium), "/forms/reunion")
    assert post.status == 303
    assert support.is_thanks(chromium.current_url, server.url("/forms/reunion/thanks"))

    click_and_wait_for_page(chromium, chromium.find_element(By.CSS_SELECTOR, ".fw-edit a"))
    assert "You are changing the answers you sent earlier" in chromium.find_element(By.CLASS_NAME, "fw-editing").text
    assert "ticket.pdf (15 bytes) is kept" in chromium.find_element(By.ID, "fw-ticket-held").text
    name = chromium.find_element(By.ID, "fw-name")
    assert name.get_attribute("value") == "Ada"
    name.clear()
    name.send_keys("Ada Lovelace")
    click_and_wait_for_page(chromium, submit_button(chromium))
    [post] = posts_to(network_exchanges(chromium), "/forms/reunion")
    assert post.status == 303  # (a multipart body, which the log does not break into fields)
    assert support.is_thanks(chromium.current_url, server.url("/forms/reunion/thanks"))

    # The link opens the saved version: the new name, the file still there, version 2.
    click_and_wait_for_page(chromium, chromium.find_element(By.CSS_SELECTOR, ".fw-edit a"))
    assert chromium.find_element(By.ID, "fw-name").get_attribute("value") == "Ada Lovelace"
    assert "ticket.pdf (15 bytes) is kept" in chromium.find_element(By.ID, "fw-ticket-held").text
    assert chromium.find_element(By.NAME, "_version").get_attribute("value") == "2"
