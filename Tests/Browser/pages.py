"""Bringing each example form into its two states, fresh and refused, in a browser or through requests."""

from __future__ import annotations

import requests
from selenium.webdriver.common.by import By

import support


def refused_page(session: requests.Session, server, form_id: str) -> tuple[str, list[tuple[str, str]]]:
    """GET the form, then post bodies (with the page's token) until the server refuses one with 422.

    Returns the 422 page and the body that produced it. Fails when no candidate body is refused: give that form an
    entry in support.INVALID_OVERRIDES."""
    url = server.url(f"/forms/{form_id}")
    fresh = session.get(url, timeout=support.HTTP_TIMEOUT)
    assert fresh.status_code == 200
    token = support.csrf_token(fresh.text)
    statuses = []
    for body in support.invalid_bodies(form_id, fresh.text):
        response = session.post(url, data=[("_csrf", token)] + body, allow_redirects=False,
                                timeout=support.HTTP_TIMEOUT)
        if response.status_code == 422:
            assert "text/html" in response.headers.get("Content-Type", "")
            return response.text, body
        statuses.append(response.status_code)
    raise AssertionError(f"no candidate body made /forms/{form_id} answer 422 (got {statuses})")


def open_refused_in_browser(chromium, server, form_id: str) -> None:
    """Load the form in the browser, then post a refused body from it (see `post_in_browser`). The browser then
    shows the server's real 422 page at the form's URL."""
    with requests.Session() as session:
        _, body = refused_page(session, server, form_id)
    post = post_in_browser(chromium, server, form_id, body)
    assert post.status == 422, f"/forms/{form_id} answered {post.status} in the browser"


def post_in_browser(chromium, server, form_id: str, body: list[tuple[str, str]]) -> support.Exchange:
    """Load the form in the browser, then post `body` from it: a form made by the test, carrying the page's own
    token (the CSRF cookie is the browser's), submitted with form.submit() so no page script can stop it. Waits
    for the answer's page to load and returns the post, as DevTools saw it."""
    chromium.get(server.url(f"/forms/{form_id}"))
    token = chromium.find_element(By.CSS_SELECTOR, "input[name=_csrf]").get_attribute("value")
    old = chromium.find_element(By.TAG_NAME, "html")
    chromium.execute_script(
        """
        const [action, pairs] = arguments;
        const form = document.createElement('form');
        form.method = 'post';
        form.action = action;
        for (const [name, value] of pairs) {
            const input = document.createElement('input');
            input.type = 'hidden'; input.name = name; input.value = value;
            form.append(input);
        }
        document.body.append(form);
        form.submit();
        """,
        server.url(f"/forms/{form_id}"), [["_csrf", token]] + [list(p) for p in body])
    support.wait(chromium).until(lambda _: support.is_gone(old))
    support.wait(chromium).until(lambda d: d.execute_script("return document.readyState") == "complete")
    [post] = support.posts_to(support.network_exchanges(chromium), f"/forms/{form_id}")
    return post

