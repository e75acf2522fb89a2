"""Helpers shared by the browser tests: the server under test, Chromium, the network log, form bodies.

Everything here is bounded in time: every wait has a deadline, every HTTP call a timeout.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import signal
import subprocess
import time
import urllib.parse
from dataclasses import dataclass, field
from collections.abc import Sequence
from pathlib import Path

import requests
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
# Descriptors made for the browser tests, for what the example forms in Forms/ do not show (reported defects'
# reproductions among them), served by `fixture_server` beside the examples.
FIXTURE_FORMS = HERE / "forms"
SCREENSHOTS = HERE / "screenshots"

HTTP_TIMEOUT = 10  # seconds, every requests call
WAIT = 10  # seconds, every explicit wait in the browser
PAGE_LOAD_TIMEOUT = 20
SERVER_START_TIMEOUT = 20
SERVER_STOP_TIMEOUT = 10

# `formwright serve` logs this once it is bound; with `--port 0` it is how we learn the port.
LISTENING = re.compile(r"listening address=127\.0\.0\.1:(\d+)")
CSRF_INPUT = re.compile(r'<input type="hidden" name="_csrf" value="([^"]*)"')


# The forms written in Swift that the examples' server (formwright-examples) serves beside Forms/.
SWIFT_FORMS = ["feedback", "invitation", "talk"]


def example_form_ids() -> list[str]:
    """The example descriptors in Forms/, by file name (each file's `id` is its name; the index test checks),
    and the examples' forms written in Swift."""
    forms = REPO / "Forms"
    return sorted([p.stem for p in forms.iterdir() if p.suffix in (".json", ".yaml", ".yml")] + SWIFT_FORMS)


def forms_js_exists() -> bool:
    return (public_folder() / "forms.js").is_file()


def public_folder() -> Path:
    # FORMWRIGHT_BROWSER_PUBLIC lets a developer try the suite against another Public/ (a forms.js in progress).
    return Path(os.environ.get("FORMWRIGHT_BROWSER_PUBLIC", str(REPO / "Public"))).resolve()


# ---------------------------------------------------------------------------------------------------------------
# The server under test


@dataclass
class Server:
    base: str
    process: subprocess.Popen
    log_path: Path
    # The SQLite file the server keeps valid posts in (what `formwright keys create --store sqlite:…` opens).
    store: Path | None = None

    def url(self, path: str) -> str:
        return self.base + path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


def is_thanks(url: str, thanks: str) -> bool:
    """Whether `url` is the thank-you page `thanks`, with or without the `?ref=` naming the kept submission (and,
    for an editable form, the `&edit=` link that changes it)."""
    pattern = re.escape(thanks) + r"\?ref=([0-9A-Z]{26})(&edit=\1\.[A-Za-z0-9_-]{43})?"
    return url == thanks or re.fullmatch(pattern, url) is not None


def formwright_binary() -> Path:
    binary = Path(os.environ.get("FORMWRIGHT_BIN", ".build/debug/formwright-examples"))
    if not binary.is_absolute():
        binary = REPO / binary
    return binary


def start_server(log_path: Path, forms: Path | str = "Forms", extra_arguments: Sequence[str] = ()) -> Server:
    """Start `formwright serve` on 127.0.0.1, port 0 (the kernel picks a free one), serving the descriptors in
    `forms` (relative to the repository), read the port back, wait for /healthz. `extra_arguments` go after the
    suite's own flags. The caller stops it with `stop_server` in a finally."""
    binary = formwright_binary()
    if not binary.is_file():
        raise RuntimeError(
            f"no formwright binary at {binary}: run `swift build --product formwright-examples` or set FORMWRIGHT_BIN")
    # Settings come from the flags alone: no FORMWRIGHT_* variable of the caller's shell leaks into the server.
    env = {k: v for k, v in os.environ.items() if not k.startswith("FORMWRIGHT_")}
    store = log_path.parent / "formwright.db"
    command = [
        str(binary), "serve", "--host", "127.0.0.1", "--port", "0",
        "--forms", str(forms), "--public", str(public_folder()), "--no-access-log",
        # Valid posts are kept, as by default, in a store of this run's own.
        "--store", f"sqlite:{store}",
        *extra_arguments,
    ]
    log_file = open(log_path, "wb")
    try:
        process = subprocess.Popen(command, cwd=REPO, env=env, stdout=log_file, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL)
    finally:
        log_file.close()  # the child holds its own descriptor
    server = None
    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        port = None
        while port is None:
            if process.poll() is not None:
                raise RuntimeError(f"formwright exited with {process.returncode}:\n{log_path.read_text()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"formwright did not say where it listens:\n{log_path.read_text()}")
            match = LISTENING.search(log_path.read_text(errors="replace"))
            port = int(match.group(1)) if match else None
            if port is None:
                time.sleep(0.05)
        server = Server(f"http://127.0.0.1:{port}", process, log_path, store)
        while True:
            try:
                if requests.get(server.url("/healthz"), timeout=2).status_code == 200:
                    return server
            except requests.RequestException:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"/healthz did not answer 200:\n{server.log()}")
            time.sleep(0.05)
    except BaseException:
        stop_process(process)
        raise


def stop_process(process: subprocess.Popen) -> None:
    """SIGTERM the process we started (by its PID, through Popen), wait, SIGKILL only if it does not stop."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=SERVER_STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=SERVER_STOP_TIMEOUT)


# ---------------------------------------------------------------------------------------------------------------
# Chromium


def chromium_paths() -> tuple[str, str]:
    # Debian's packages; explicit paths so that Selenium Manager never tries to download a browser or a driver.
    browser = shutil.which("chromium") or "/usr/bin/chromium"
    driver = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    return browser, driver


def new_chromium(javascript: bool, log_dir: Path, language: str = "en-US") -> WebDriver:
    """A headless Chromium whose interface and `Accept-Language` are `language`."""
    browser, driver_path = chromium_paths()
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for argument in (
        "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1000",
        f"--lang={language}", "--disable-extensions", "--no-first-run", "--disable-background-networking",
        "--hide-scrollbars",
    ):
        options.add_argument(argument)
    prefs = {"intl.accept_languages": language}
    if not javascript:
        # The page's own scripts never run; WebDriver's execute_script still does (it goes through DevTools).
        prefs["profile.managed_default_content_settings.javascript"] = 2
    options.add_experimental_option("prefs", prefs)
    # The performance log carries DevTools' Network events: what the browser really posted, and each status.
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    service = Service(driver_path, log_output=str(log_dir / f"chromedriver-{'js' if javascript else 'nojs'}.log"))
    chromium = webdriver.Chrome(service=service, options=options)
    chromium.set_page_load_timeout(PAGE_LOAD_TIMEOUT)
    chromium.set_script_timeout(PAGE_LOAD_TIMEOUT)
    chromium.implicitly_wait(0)
    return chromium


def reset(chromium: WebDriver) -> None:
    """Between tests: a blank page, no cookies, no left-over log entries."""
    chromium.get("about:blank")
    chromium.delete_all_cookies()
    chromium.get_log("performance")
    chromium.get_log("browser")


def wait(chromium: WebDriver, seconds: float = WAIT) -> WebDriverWait:
    return WebDriverWait(chromium, seconds, poll_frequency=0.05)


def click_and_wait_for_page(chromium: WebDriver, element: WebElement) -> None:
    """Click something that navigates, and wait until the old document is gone and the new one has loaded."""
    old = chromium.find_element(By.TAG_NAME, "html")
    element.click()
    wait(chromium).until(lambda _: is_gone(old))
    wait(chromium).until(lambda d: d.execute_script("return document.readyState") == "complete")


def is_gone(element: WebElement) -> bool:
    """Whether `element`'s document has been replaced. Mid-navigation, chromedriver sometimes reports
    the old node as not belonging to the document rather than as stale: that is gone too."""
    try:
        element.is_enabled()
        return False
    except StaleElementReferenceException:
        return True
    except WebDriverException as error:
        if "does not belong to the document" in str(error):
            return True
        raise


def set_value(chromium: WebDriver, element: WebElement, value: str) -> None:
    """Set a control's value as the user's input would, with input and change events.

    Used for datetime-local: typing into it depends on the browser's locale, and the value is what matters here."""
    chromium.execute_script(
        "const e = arguments[0]; e.value = arguments[1];"
        "e.dispatchEvent(new Event('input', {bubbles: true}));"
        "e.dispatchEvent(new Event('change', {bubbles: true}));",
        element, value)


def active_element_id(chromium: WebDriver) -> str:
    return chromium.execute_script("return document.activeElement ? document.activeElement.id : ''")


def severe_console_messages(chromium: WebDriver) -> list[str]:
    return [entry["message"] for entry in chromium.get_log("browser") if entry.get("level") == "SEVERE"]


# ---------------------------------------------------------------------------------------------------------------
# What went over the wire, from DevTools' Network events


@dataclass
class Exchange:
    url: str
    method: str
    resource_type: str
    post_data: str | None = None
    content_type: str | None = None
    status: int | None = None
    headers: dict = field(default_factory=dict)

    def form_pairs(self) -> list[tuple[str, str]]:
        """The posted body as ordered (name, value) pairs (urlencoded bodies only)."""
        assert self.post_data is not None, f"no body recorded for {self.method} {self.url}"
        assert self.content_type is None or "x-www-form-urlencoded" in self.content_type, self.content_type
        return urllib.parse.parse_qsl(self.post_data, keep_blank_values=True)

    def values(self, name: str) -> list[str]:
        return [v for k, v in self.form_pairs() if k == name]


def network_exchanges(chromium: WebDriver) -> list[Exchange]:
    """Requests since the last call (the log is drained), in order, with their final statuses.

    A redirect keeps its request id in DevTools: the 303 closes the POST, and a new exchange starts for the GET."""
    exchanges: list[Exchange] = []
    by_id: dict[str, Exchange] = {}
    for entry in chromium.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        params = message.get("params", {})
        if message.get("method") == "Network.requestWillBeSent":
            request_id = params["requestId"]
            if "redirectResponse" in params and request_id in by_id:
                by_id[request_id].status = params["redirectResponse"]["status"]
            request = params["request"]
            headers = {k.lower(): v for k, v in request.get("headers", {}).items()}
            exchange = Exchange(request["url"], request["method"], params.get("type", ""), request.get("postData"),
                                headers.get("content-type"), headers=headers)
            exchanges.append(exchange)
            by_id[request_id] = exchange
        elif message.get("method") == "Network.responseReceived":
            exchange = by_id.get(params["requestId"])
            if exchange is not None:
                exchange.status = params["response"]["status"]
    return exchanges


def posts_to(exchanges: list[Exchange], path: str) -> list[Exchange]:
    return [e for e in exchanges if e.method == "POST" and urllib.parse.urlsplit(e.url).path == path]


# ---------------------------------------------------------------------------------------------------------------
# Bodies and sessions for requests


def csrf_token(html: str) -> str:
    match = CSRF_INPUT.search(html)
    assert match, "the page has no _csrf input"
    return match.group(1)


def field_names(html: str) -> list[str]:
    """Every named control of the page once, in page order, but the CSRF token and the buttons."""
    names = re.findall(r'<(?:input|select|textarea)\b[^>]*\bname="([^"]+)"', html)
    return [n for n in dict.fromkeys(names) if n != "_csrf"]


# Forms that no empty or garbage post makes invalid; each gets a body the server must refuse.
INVALID_OVERRIDES: dict[str, list[tuple[str, str]]] = {
    # maxRows is 10: eleven tags are an error of the section.
    "multivalued": [("tags", f"tag{i}") for i in range(11)],
}


def invalid_bodies(form_id: str, html: str) -> list[list[tuple[str, str]]]:
    """Bodies (without the token) to try, in order, until one is refused with 422: empty, then a value no row type
    accepts in every control (numbers, dates, choices, emails, URLs refuse it), then the form's override."""
    candidates = [[], [(name, "zz-not-valid") for name in field_names(html)]]
    if form_id in INVALID_OVERRIDES:
        candidates.insert(0, INVALID_OVERRIDES[form_id])
    return candidates


def sent_reunion(session: requests.Session, server) -> tuple[requests.Response, str]:
    """Send Ada's answer to the editable reunion form from `session`, as a browser does: the thank-you page it is
    sent to, and the path of the private link that page gives to change the answer."""
    page = session.get(server.url("/forms/reunion"), timeout=HTTP_TIMEOUT)
    thanks = session.post(server.url("/forms/reunion"),
                          data=[("_csrf", csrf_token(page.text)), ("name", "Ada"), ("email", "ada@example.org")],
                          timeout=HTTP_TIMEOUT)
    assert thanks.status_code == 200 and "/forms/reunion/thanks?ref=" in thanks.url, thanks.text
    match = re.search(r'<p class="fw-edit"><a href="([^"]+)"', thanks.text)
    assert match, "the thank-you page has no edit link"
    return thanks, match.group(1)


def browser_session(chromium: WebDriver) -> requests.Session:
    """A requests session holding the browser's cookies (the CSRF cookie is HttpOnly: WebDriver still sees it)."""
    session = requests.Session()
    for cookie in chromium.get_cookies():
        session.cookies.set(cookie["name"], cookie["value"], path=cookie.get("path", "/"))
    return session


def post_as_api(session: requests.Session, url: str, pairs: list[tuple[str, str]]) -> requests.Response:
    """Post an urlencoded body and ask for JSON: the server answers with the verdict's payload or errors."""
    return session.post(url, data=pairs, headers={"Accept": "application/json"}, allow_redirects=False,
                        timeout=HTTP_TIMEOUT)


def full_page_png(chromium: WebDriver) -> bytes:
    """A PNG of the whole document, beyond the viewport, through DevTools (Chromium's WebDriver has no full-page
    screenshot of its own)."""
    metrics = chromium.execute_cdp_cmd("Page.getLayoutMetrics", {})
    size = metrics.get("cssContentSize") or metrics["contentSize"]
    shot = chromium.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1},
    })
    return base64.b64decode(shot["data"])


def wait_until(predicate, seconds: float = WAIT, message: str = "condition"):
    deadline = time.monotonic() + seconds
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutException(f"timed out after {seconds}s waiting for {message}")
        time.sleep(0.05)


def assert_summary_with_inline_errors(chromium, expected_ids):
    """The 422 page: an error summary before the form, role=alert, a link per error to its field; each field
    aria-invalid and described by its visible inline error."""
    summary = chromium.find_element(By.ID, "fw-summary")
    assert summary.get_attribute("role") == "alert"
    assert summary.is_displayed()
    form = chromium.find_element(By.ID, "fw-form")
    # Node.DOCUMENT_POSITION_FOLLOWING (4): the form comes after the summary, so the summary is at the top.
    assert chromium.execute_script("return arguments[0].compareDocumentPosition(arguments[1]) & 4", summary, form)
    links = summary.find_elements(By.CSS_SELECTOR, "a[href^='#']")
    targets = [link.get_attribute("href").split("#", 1)[1] for link in links]
    assert targets == expected_ids
    for target, link in zip(targets, links):
        control = chromium.find_element(By.ID, target)
        assert control.get_attribute("aria-invalid") == "true", target
        described = (control.get_attribute("aria-describedby") or "").split()
        errors = [chromium.find_element(By.ID, i) for i in described if i.endswith("-error")]
        assert len(errors) == 1, f"{target} is described by {described}"
        assert errors[0].is_displayed()
        assert link.text.strip() in errors[0].text, (link.text, errors[0].text)


def ax_node(chromium, element_id):
    """Chromium's accessibility node for the element with `element_id`: what a screen reader is given."""
    document = chromium.execute_cdp_cmd("DOM.getDocument", {})
    node = chromium.execute_cdp_cmd("DOM.querySelector",
                                    {"nodeId": document["root"]["nodeId"], "selector": f"#{element_id}"})
    tree = chromium.execute_cdp_cmd("Accessibility.getPartialAXTree",
                                    {"nodeId": node["nodeId"], "fetchRelatives": False})
    return next(n for n in tree["nodes"] if not n.get("ignored"))
