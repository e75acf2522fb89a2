"""Full-page PNGs of every example form, for people to look at (Tests/Browser/screenshots/, kept by CI).

The assertions are what a picture needs to be worth looking at: the stylesheet applied, the page laid out.
With FORMWRIGHT_BROWSER_DARK=1 each page is also saved as `NAME-dark.png` under an emulated
`prefers-color-scheme: dark`, and the stylesheet must answer it (the page's background changes)."""

from __future__ import annotations

import os
import struct

import pytest
from selenium.webdriver.common.by import By

import pages
import support


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


DARK = os.environ.get("FORMWRIGHT_BROWSER_DARK") == "1"


def emulate_color_scheme(chromium, scheme: str) -> None:
    """`prefers-color-scheme` for the page (DevTools' Emulation domain); "" goes back to the browser's own."""
    chromium.execute_cdp_cmd("Emulation.setEmulatedMedia",
                             {"features": [{"name": "prefers-color-scheme", "value": scheme}]})


def save(chromium, name: str) -> tuple[int, int]:
    size = save_png(chromium, name)
    if DARK:
        light = chromium.execute_script("return getComputedStyle(document.body).backgroundColor")
        emulate_color_scheme(chromium, "dark")
        try:
            assert chromium.execute_script("return matchMedia('(prefers-color-scheme: dark)').matches")
            dark = chromium.execute_script("return getComputedStyle(document.body).backgroundColor")
            assert dark != light, f"forms.css has no dark scheme: the background stays {light}"
            save_png(chromium, f"{name}-dark")
        finally:
            emulate_color_scheme(chromium, "")
    return size


def save_png(chromium, name: str) -> tuple[int, int]:
    # forms.css must have loaded and applied (CSP, a 404 or a MIME type would stop it): <main> gets its max-width.
    applied = chromium.execute_script(
        "const s = [...document.styleSheets].find(s => (s.href || '').endsWith('/static/forms.css'));"
        "return !!s && s.cssRules.length > 0 && getComputedStyle(document.querySelector('main')).maxWidth !== 'none'")
    assert applied, "forms.css did not apply"
    data = support.full_page_png(chromium)
    support.SCREENSHOTS.mkdir(exist_ok=True)
    (support.SCREENSHOTS / f"{name}.png").write_bytes(data)
    width, height = png_size(data)
    page_height = chromium.execute_script("return document.documentElement.scrollHeight")
    assert width == 1280
    assert abs(height - page_height) <= 2, (height, page_height)
    return width, height


@pytest.mark.parametrize("form_id", support.example_form_ids())
def test_screenshot_fresh_form(js_browser, server, form_id):
    js_browser.get(server.url(f"/forms/{form_id}"))
    js_browser.find_element(By.ID, "fw-form")
    save(js_browser, form_id)


@pytest.mark.parametrize("form_id", ["event", "dates", "selectors", "multivalued"])
def test_screenshot_refused_form(js_browser, server, form_id):
    pages.open_refused_in_browser(js_browser, server, form_id)
    save(js_browser, f"{form_id}-refused")
