"""The operator's view, /admin, end to end: a server of its own with a SQLite store, API keys made with
`formwright keys create`, submissions posted as JSON (an XSS corpus among them, and more than a page of them),
then Chromium signing in, reading, searching, paging, exporting, deleting and signing out; the refusals, through
requests for their statuses; axe and the Nu checker on every page, in English and Simplified Chinese; and the pages
at a phone's width.

The pages have no script, so the flow runs in the Chromium with JavaScript off; the XSS checks run in the one
with JavaScript on, where an injected handler would run, and so do axe (its asynchronous script needs JavaScript)
and the phone-width checks."""

from __future__ import annotations

import csv
import datetime
import io
import json
import os
import re
import secrets
import subprocess
import time
import urllib.parse
from dataclasses import dataclass, field

import pytest
import requests
from selenium.webdriver.common.by import By

import conftest
import support
from a11y import check
from support import click_and_wait_for_page
from test_html_validity import OUTDATED_WARNING, format_messages, page_errors, run_vnu

KEYS_TIMEOUT = 30  # seconds for one `formwright keys create`
PAGE_SIZE = 50  # submissions a page of the table shows (AdminRoutes.pageSize)
REFERENCE = re.compile(r"[0-9A-HJKMNP-TV-Z]{26}")  # a submission's id, a ULID
SESSION_COOKIE = "fw_admin"  # without --secure-cookies

# Titles that would run a script or make an element if the pages did not escape them; each sets window.__xss.
XSS_TITLES = [
    "<script>window.__xss=1</script>",
    '<img src=x onerror="window.__xss=1">',
    '"><svg onload=window.__xss=1>',
    "</td></tr></table><iframe srcdoc=\"<script>parent.__xss=1</script>\"></iframe>",
]
XSS_LOCATION = "<b onmouseover=window.__xss=1>Room 4</b>"
# The elements the corpus would make: none of the view's pages has one of its own (its charts' <svg> have a class).
INJECTED = "script, img, iframe, b, svg:not(.fw-days):not(.fw-answers), [onerror], [onload], [onmouseover]"
LUNCH = "Team lunch"
FESTIVAL = "Harvest festival planning"
# Longer than a cell shows (80 characters), within the title's maxLength (100).
LONG_TITLE = "A very long title " + "x" * 72 + " end of it"
FILLER = 64  # plain submissions besides: with the ones above, more than a page


@dataclass
class Admin:
    """The admin tests' server and what was put in its store."""

    server: support.Server
    keys: dict[str, str]
    # Reference by title, for the titles posted once.
    ids: dict[str, str]
    # How many event submissions the store keeps (a test that adds one deletes it again).
    count: int
    xss_ids: list[str] = field(default_factory=list)

    def url(self, path: str) -> str:
        return self.server.url(path)


def settings_free_env() -> dict[str, str]:
    # As support.start_server: no FORMWRIGHT_* variable of the caller's shell reaches the binary.
    return {k: v for k, v in os.environ.items() if not k.startswith("FORMWRIGHT_")}


def make_key(server: support.Server, name: str, scopes: str) -> str:
    run = subprocess.run(
        [str(support.formwright_binary()), "keys", "create", "--store", f"sqlite:{server.store}", name,
         "--scope", scopes],
        cwd=support.REPO, env=settings_free_env(), capture_output=True, text=True, timeout=KEYS_TIMEOUT)
    assert run.returncode == 0, f"keys create {name} exited with {run.returncode}:\n{run.stdout}{run.stderr}"
    key = run.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"fwk_[0-9a-f]{64}", key), run.stdout
    return key


def post_event(server: support.Server, title: str, **answers) -> str:
    """Post an event as JSON (no CSRF token: a JSON body is an API client's); the kept submission's reference."""
    body = {"title": title, "starts": "2026-11-23T12:00", "ends": "2026-11-23T13:00", **answers}
    response = requests.post(server.url("/forms/event"), json=body, timeout=support.HTTP_TIMEOUT)
    assert response.status_code == 200, response.text
    assert response.headers["Content-Type"].startswith("application/json")
    reference = response.json()["id"]
    assert REFERENCE.fullmatch(reference), reference
    return reference


@pytest.fixture(scope="module")
def admin(tmp_path_factory):
    """A server of its own (the wrong-key throttle and the store's contents are this module's alone), its keys,
    and its submissions."""
    folder = tmp_path_factory.mktemp("admin-server")
    server = support.start_server(folder / "formwright.log")
    try:
        assert server.store is not None and server.store.is_file(), "the server made no SQLite store"
        keys = {
            "admin": make_key(server, "admin", "read,export,delete"),
            "reader": make_key(server, "reader", "read"),
            "poster": make_key(server, "poster", "submit"),
        }
        ids = {}
        ids[LUNCH] = post_event(server, LUNCH, alert="15m", guests=8)
        ids[FESTIVAL] = post_event(server, FESTIVAL, alert="1h", guests=40, location="Barn")
        xss_ids = [post_event(server, title, alert="1d", notes=title) for title in XSS_TITLES]
        xss_ids.append(post_event(server, "Injected location", alert="1d", location=XSS_LOCATION))
        for number in range(FILLER):
            post_event(server, f"Standup {number}", alert=["5m", "30m"][number % 2], guests=number % 10)
        ids[LONG_TITLE] = post_event(server, LONG_TITLE)  # the newest: on the table's first page
        yield Admin(server, keys, ids, 3 + len(xss_ids) + FILLER, xss_ids)
    finally:
        support.stop_process(server.process)
    assert server.process.returncode == 0, f"formwright exited with {server.process.returncode}:\n{server.log()}"


def clear_cookies(chromium) -> None:
    # Cookies are per host, not per port: the admin session must not reach the suite's other server, nor its
    # CSRF cookie this one.
    chromium.execute_cdp_cmd("Network.clearBrowserCookies", {})


def fresh(chromium):
    support.reset(chromium)
    clear_cookies(chromium)
    try:
        yield chromium
    finally:
        clear_cookies(chromium)


@pytest.fixture
def nojs_admin_browser(_chromium_nojs, admin):
    """The suite's Chromium without JavaScript, with no cookie."""
    yield from fresh(_chromium_nojs)


@pytest.fixture
def js_admin_browser(_chromium_js, admin):
    """The suite's Chromium with JavaScript, with no cookie: where an injected script would run, and where axe
    runs (WebDriver's asynchronous scripts need JavaScript on)."""
    yield from fresh(_chromium_js)


@pytest.fixture(scope="module")
def _chromium_zh(tmp_path_factory):
    chromium = support.new_chromium(True, tmp_path_factory.mktemp("chromium-zh"), language="zh-CN")
    try:
        yield chromium
    finally:
        chromium.quit()


@pytest.fixture
def zh_browser(_chromium_zh, admin):
    """A Chromium whose language is Chinese (Accept-Language: zh-CN)."""
    yield from fresh(_chromium_zh)


# ---------------------------------------------------------------------------------------------------------------
# Helpers


def path_and_query(url: str) -> tuple[str, dict[str, list[str]]]:
    parts = urllib.parse.urlsplit(url)
    return parts.path, urllib.parse.parse_qs(parts.query, keep_blank_values=True)


def labelled(chromium, label: str):
    """The control whose <label> says `label`."""
    target = chromium.find_element(By.XPATH, f"//label[normalize-space()='{label}']").get_attribute("for")
    return chromium.find_element(By.ID, target)


def button(chromium, text: str):
    return chromium.find_element(By.XPATH, f"//button[normalize-space()='{text}']")


def documents(chromium) -> list[support.Exchange]:
    """The pages the browser loaded since the last call, redirects included, with their statuses."""
    return [e for e in support.network_exchanges(chromium) if e.resource_type == "Document"]


def sign_in(chromium, admin: Admin, path: str = "/admin", key: str = "admin") -> None:
    """Open `path` without a session: the sign-in page comes instead; sign in there with the key `key`, by the
    field labelled "API key" and the "Sign in" button, and land on `path`."""
    chromium.get(admin.url(path))
    where, query = path_and_query(chromium.current_url)
    assert where == "/admin/sign-in" and query["next"] == [path], chromium.current_url
    field = labelled(chromium, "API key")
    assert field.get_attribute("type") == "password"
    field.send_keys(admin.keys[key])
    click_and_wait_for_page(chromium, button(chromium, "Sign in"))
    assert chromium.current_url == admin.url(path)
    assert chromium.find_element(By.CSS_SELECTOR, ".fw-admin-bar p").text == f"Signed in with the key {key}"


def table_references(chromium) -> list[str]:
    """The references in the submissions table's first column, in page order."""
    return [a.text for a in chromium.find_elements(By.CSS_SELECTOR, "table.fw-submissions tbody th[scope=row] a")]


def column(chromium, title: str) -> list[str]:
    """The submissions table's cells under the heading `title`, in page order."""
    headings = [th.text for th in chromium.find_elements(By.CSS_SELECTOR, "table.fw-submissions thead th")]
    index = headings.index(title)
    return [row.find_elements(By.XPATH, "./*")[index].text
            for row in chromium.find_elements(By.CSS_SELECTOR, "table.fw-submissions tbody tr")]


def answers(chromium) -> dict[str, str]:
    """A submission page's answers: each <dt>'s text to its <dd>'s."""
    return {div.find_element(By.TAG_NAME, "dt").text: div.find_element(By.TAG_NAME, "dd").text
            for div in chromium.find_elements(By.CSS_SELECTOR, ".fw-record dl > div")}


def has_link(chromium, text: str) -> bool:
    return bool(chromium.find_elements(By.LINK_TEXT, text))


def submission_path(reference: str) -> str:
    return f"/admin/forms/event/submissions/{reference}"


def sign_in_http(session: requests.Session, admin: Admin, key: str, next_page: str = "/admin",
                 token: bool = True) -> requests.Response:
    """Sign in as a browser would, from the sign-in page (its nonce cookie and token); the answer, not followed."""
    page = session.get(admin.url("/admin/sign-in"), params={"next": next_page}, timeout=support.HTTP_TIMEOUT)
    assert page.status_code == 200
    body = {"next": next_page, "key": key}
    if token:
        body["_csrf"] = support.csrf_token(page.text)
    return session.post(admin.url("/admin/sign-in"), data=body, allow_redirects=False, timeout=support.HTTP_TIMEOUT)


def signed_in_session(admin: Admin, key: str = "admin") -> requests.Session:
    session = requests.Session()
    response = sign_in_http(session, admin, admin.keys[key])
    assert response.status_code == 303 and response.headers["Location"] == "/admin", response.text
    assert session.cookies.get(SESSION_COOKIE)
    return session


def get(session: requests.Session, admin: Admin, path: str, **kwargs) -> requests.Response:
    return session.get(admin.url(path), allow_redirects=False, timeout=support.HTTP_TIMEOUT, **kwargs)


def page_token(html: str) -> str:
    """The session's token, from a signed-in page's sign-out form."""
    return support.csrf_token(html)


def assert_sent_to_sign_in(response: requests.Response, next_page: str) -> dict[str, list[str]]:
    assert response.status_code == 303, (response.status_code, response.text[:500])
    where, query = path_and_query(response.headers["Location"])
    assert where == "/admin/sign-in" and query["next"] == [next_page], response.headers["Location"]
    return query


def today_utc() -> str:
    return datetime.datetime.now(datetime.timezone.utc).date().isoformat()


# ---------------------------------------------------------------------------------------------------------------
# The operator's flow, in Chromium


def test_admin_sends_to_sign_in_and_back_to_the_page_asked(nojs_admin_browser, admin):
    chromium = nojs_admin_browser
    documents(chromium)
    sign_in(chromium, admin, "/admin/forms/event?q=lunch")
    loaded = documents(chromium)
    asked = [e for e in loaded if e.method == "GET" and e.url == admin.url("/admin/forms/event?q=lunch")]
    assert [e.status for e in asked] == [303, 200], [(e.method, e.url, e.status) for e in loaded]
    [posted] = support.posts_to(loaded, "/admin/sign-in")
    assert posted.status == 303
    assert column(chromium, "Title") == [LUNCH]
    [cookie] = [c for c in chromium.get_cookies() if c["name"] == SESSION_COOKIE]
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and cookie["path"] == "/admin", cookie
    assert chromium.title == "Add Event – Formwright"


def test_the_overview_lists_the_forms_and_opens_one(nojs_admin_browser, admin):
    chromium = nojs_admin_browser
    sign_in(chromium, admin)
    assert chromium.find_element(By.TAG_NAME, "h1").text == "Submissions"
    overview = chromium.find_element(By.XPATH, "//table[caption[normalize-space()='Forms']]")
    linked = {a.get_attribute("href").removeprefix(admin.url(""))
              for a in overview.find_elements(By.CSS_SELECTOR, "tbody th[scope=row] a")}
    descriptors = {p.stem for p in (support.REPO / "Forms").iterdir() if p.suffix in (".json", ".yaml", ".yml")}
    assert {f"/admin/forms/{form_id}" for form_id in descriptors} <= linked, linked
    event = overview.find_element(By.XPATH, ".//tbody/tr[th/a[normalize-space()='Add Event']]")
    cells = [td.text for td in event.find_elements(By.XPATH, "./td")]
    today, week, total, last, failed = cells[:5]
    # Every submission came today (UTC), and the event form delivers nothing.
    assert (today, week, total) == (str(admin.count),) * 3, cells
    assert last.startswith(today_utc()) and failed == "–", cells
    summary = event.find_element(By.CSS_SELECTOR, ".fw-chart-summary").text
    assert summary == f"{admin.count} in all; the most, {admin.count}, on {today_utc()}."
    # A form no one sent says so.
    account = overview.find_element(By.XPATH, ".//tbody/tr[th/a[@href='/admin/forms/account']]")
    assert [td.text for td in account.find_elements(By.XPATH, "./td")][:4] == ["0", "0", "0", "None yet"]

    click_and_wait_for_page(chromium, chromium.find_element(By.LINK_TEXT, "Add Event"))
    assert chromium.current_url == admin.url("/admin/forms/event")
    assert chromium.find_element(By.TAG_NAME, "h1").text == "Add Event"
    headings = [th.text for th in chromium.find_elements(By.CSS_SELECTOR, "table.fw-submissions thead th")]
    assert headings[:3] == ["Reference", "Received (UTC)", "Title"], headings
    # The long title is cut in its cell, with an ellipsis.
    [cut] = [t for t in column(chromium, "Title") if t.startswith("A very long title")]
    assert len(cut) == 80 and cut.endswith("…") and cut[:-1] == LONG_TITLE[:79], cut


def test_search_finds_a_submission_by_a_word_of_its_title(nojs_admin_browser, admin):
    chromium = nojs_admin_browser
    sign_in(chromium, admin, "/admin/forms/event")
    search = labelled(chromium, "Search the answers")
    assert search.get_attribute("type") == "search"
    search.send_keys("FESTIVAL")  # letters compare in either case
    click_and_wait_for_page(chromium, button(chromium, "Show"))
    where, query = path_and_query(chromium.current_url)
    assert where == "/admin/forms/event" and query["q"] == ["FESTIVAL"]
    assert table_references(chromium) == [admin.ids[FESTIVAL]]
    assert column(chromium, "Title") == [FESTIVAL]
    assert labelled(chromium, "Search the answers").get_attribute("value") == "FESTIVAL"
    caption = chromium.find_element(By.CSS_SELECTOR, "table.fw-submissions caption").text
    assert caption == "Submissions · Newest first · 1 shown"
    assert not has_link(chromium, "Older submissions") and not has_link(chromium, "Newest submissions")
    # The exports are of what is shown.
    csv_link = chromium.find_element(By.LINK_TEXT, "CSV").get_attribute("href")
    assert path_and_query(csv_link) == ("/admin/forms/event/export.csv", {"q": ["FESTIVAL"]})

    # A word of an answer other than the title finds too (the location).
    search = labelled(chromium, "Search the answers")
    search.clear()
    search.send_keys("barn")
    click_and_wait_for_page(chromium, button(chromium, "Show"))
    assert table_references(chromium) == [admin.ids[FESTIVAL]]

    search = labelled(chromium, "Search the answers")
    search.clear()
    search.send_keys("nothing-has-this-word")
    click_and_wait_for_page(chromium, button(chromium, "Show"))
    assert not table_references(chromium)
    assert chromium.find_element(By.CSS_SELECTOR, "p.fw-empty").text == "No submissions match."

    # "Clear" shows every submission again.
    click_and_wait_for_page(chromium, chromium.find_element(By.LINK_TEXT, "Clear"))
    assert chromium.current_url == admin.url("/admin/forms/event")
    assert len(table_references(chromium)) == PAGE_SIZE


def test_a_range_of_days_that_ends_before_it_starts_is_refused(admin):
    with signed_in_session(admin) as session:
        response = get(session, admin, "/admin/forms/event", params={"since": "2026-11-30", "until": "2026-11-01"})
    assert response.status_code == 400
    assert '<p class="fw-error" role="alert">Give days as 2026-11-28, the first no later than the last.</p>' \
        in response.text
    assert "<title>Error: " in response.text


def test_paging_goes_to_older_submissions_and_back_to_the_newest(nojs_admin_browser, admin):
    chromium = nojs_admin_browser
    sign_in(chromium, admin, "/admin/forms/event")
    first = table_references(chromium)
    assert len(first) == PAGE_SIZE
    assert first == sorted(first, reverse=True), "not newest first"
    caption = chromium.find_element(By.CSS_SELECTOR, "table.fw-submissions caption").text
    assert caption == f"Submissions · Newest first · {PAGE_SIZE} shown"
    assert not has_link(chromium, "Newest submissions")

    click_and_wait_for_page(chromium, chromium.find_element(By.LINK_TEXT, "Older submissions"))
    where, query = path_and_query(chromium.current_url)
    assert where == "/admin/forms/event" and query["cursor"] == [first[-1]]
    second = table_references(chromium)
    assert len(second) == admin.count - PAGE_SIZE
    assert second == sorted(second, reverse=True) and second[0] < first[-1], (first[-1], second[:3])
    assert not has_link(chromium, "Older submissions")

    click_and_wait_for_page(chromium, chromium.find_element(By.LINK_TEXT, "Newest submissions"))
    assert chromium.current_url == admin.url("/admin/forms/event")
    assert table_references(chromium) == first


def test_a_submission_opens_from_its_reference(nojs_admin_browser, admin):
    chromium = nojs_admin_browser
    sign_in(chromium, admin, "/admin/forms/event?q=lunch")
    reference = admin.ids[LUNCH]
    link = chromium.find_element(By.CSS_SELECTOR, "table.fw-submissions tbody tr th[scope=row] a")
    assert link.text == reference
    click_and_wait_for_page(chromium, link)
    assert chromium.current_url == admin.url(submission_path(reference))
    assert chromium.find_element(By.TAG_NAME, "h1").text == f"Submission {reference}"
    shown = answers(chromium)
    assert shown["Title"] == LUNCH
    assert shown["Alert"] == "15 minutes before"  # the option's title, not its value
    assert shown["Guests"] == "8"
    assert shown["All-day"] == "No"
    crumbs = [a.text for a in chromium.find_elements(By.CSS_SELECTOR, "nav.fw-crumbs a")]
    assert crumbs == ["All forms", "Add Event"]
    assert chromium.find_element(By.LINK_TEXT, "Delete").get_attribute("href") == \
        admin.url(submission_path(reference) + "/delete")
    # A version that the submission never had is no page.
    with support.browser_session(chromium) as session:
        assert get(session, admin, submission_path(reference) + "?version=7").status_code == 404


def test_the_csv_export_answers_what_the_table_shows(nojs_admin_browser, admin):
    chromium = nojs_admin_browser
    sign_in(chromium, admin, "/admin/forms/event?q=festival")
    searched = chromium.find_element(By.LINK_TEXT, "CSV").get_attribute("href")
    click_and_wait_for_page(chromium, chromium.find_element(By.LINK_TEXT, "Clear"))
    everything = chromium.find_element(By.LINK_TEXT, "CSV").get_attribute("href")
    jsonl = chromium.find_element(By.LINK_TEXT, "JSON lines").get_attribute("href")
    with support.browser_session(chromium) as session:
        found = session.get(searched, allow_redirects=False, timeout=support.HTTP_TIMEOUT)
        assert found.status_code == 200
        assert found.headers["Content-Type"].startswith("text/csv")
        assert "attachment" in found.headers.get("Content-Disposition", "")
        rows = list(csv.reader(io.StringIO(found.content.decode("utf-8-sig"))))
        assert len(rows) == 2, rows
        assert "Title" in rows[0] and rows[1][rows[0].index("Title")] == FESTIVAL, rows

        every = session.get(everything, allow_redirects=False, timeout=support.HTTP_TIMEOUT)
        assert every.status_code == 200 and every.headers["Content-Type"].startswith("text/csv")
        rows = list(csv.reader(io.StringIO(every.content.decode("utf-8-sig"))))
        titles = [row[rows[0].index("Title")] for row in rows[1:]]
        assert len(titles) == admin.count
        # Written as they came, not as HTML.
        assert set(XSS_TITLES) <= set(titles)

        lines = session.get(jsonl, allow_redirects=False, timeout=support.HTTP_TIMEOUT)
        assert lines.status_code == 200
        assert lines.headers["Content-Type"].startswith("application/jsonl")
        records = [json.loads(line) for line in lines.text.splitlines() if line.strip()]
        assert len(records) == admin.count


def test_deleting_asks_first_then_the_submission_is_gone(nojs_admin_browser, admin):
    chromium = nojs_admin_browser
    reference = post_event(admin.server, "Delete me please")
    try:
        sign_in(chromium, admin, "/admin/forms/event?q=please")
        click_and_wait_for_page(chromium, chromium.find_element(By.LINK_TEXT, reference))
        click_and_wait_for_page(chromium, chromium.find_element(By.LINK_TEXT, "Delete"))
        assert chromium.current_url == admin.url(submission_path(reference) + "/delete")
        assert chromium.find_element(By.TAG_NAME, "h1").text == f"Delete submission {reference}?"
        cancel = chromium.find_element(By.LINK_TEXT, "Cancel")
        assert cancel.get_attribute("href") == admin.url(submission_path(reference))
        # Cancel changes nothing.
        click_and_wait_for_page(chromium, cancel)
        assert chromium.current_url == admin.url(submission_path(reference))
        assert answers(chromium)["Title"] == "Delete me please"

        click_and_wait_for_page(chromium, chromium.find_element(By.LINK_TEXT, "Delete"))
        documents(chromium)
        click_and_wait_for_page(chromium, button(chromium, "Delete"))
        [posted] = support.posts_to(documents(chromium), submission_path(reference) + "/delete")
        assert posted.status == 303
        assert chromium.current_url == admin.url(f"/admin/forms/event?deleted={reference}")
        notice = chromium.find_element(By.CSS_SELECTOR, "p.fw-notice")
        assert notice.text == f"Submission {reference} was deleted."
        assert notice.get_attribute("role") == "status"
        assert reference not in table_references(chromium)

        with support.browser_session(chromium) as session:
            gone = get(session, admin, submission_path(reference))
            assert gone.status_code == 404
            assert "There is no such form or submission here" in gone.text
            assert get(session, admin, submission_path(reference) + "/delete").status_code == 404
            token = page_token(get(session, admin, "/admin").text)
            again = session.post(admin.url(submission_path(reference) + "/delete"),
                                 data={"_csrf": token}, allow_redirects=False,
                                 timeout=support.HTTP_TIMEOUT)
            assert again.status_code == 404
            assert reference not in get(session, admin, "/admin/forms/event", params={"q": "please"}).text
    finally:
        # What the other tests count stays as it was, whatever happened here.
        with signed_in_session(admin) as session:
            if get(session, admin, submission_path(reference)).status_code == 200:
                token = page_token(get(session, admin, "/admin").text)
                session.post(admin.url(submission_path(reference) + "/delete"), data={"_csrf": token},
                             timeout=support.HTTP_TIMEOUT)


def test_signing_out_ends_the_session(nojs_admin_browser, admin):
    chromium = nojs_admin_browser
    sign_in(chromium, admin)
    [cookie] = [c for c in chromium.get_cookies() if c["name"] == SESSION_COOKIE]
    click_and_wait_for_page(chromium, button(chromium, "Sign out"))
    assert chromium.current_url == admin.url("/admin/sign-in?out=1")
    assert chromium.find_element(By.CSS_SELECTOR, "p.fw-notice").text == "You have signed out."
    assert not [c for c in chromium.get_cookies() if c["name"] == SESSION_COOKIE]
    chromium.get(admin.url("/admin"))
    assert path_and_query(chromium.current_url) == ("/admin/sign-in", {"next": ["/admin"]})
    # The session ended in the store, not only in the browser: its cookie, kept, opens nothing.
    with requests.Session() as session:
        session.cookies.set(SESSION_COOKIE, cookie["value"], path="/admin")
        query = assert_sent_to_sign_in(get(session, admin, "/admin"), "/admin")
        assert query.get("ended") == ["1"]


# ---------------------------------------------------------------------------------------------------------------
# Submissions are anyone's text: shown as text, never as markup


def assert_nothing_injected(chromium, where: str) -> None:
    assert chromium.execute_script("return typeof window.__xss") == "undefined", f"a script ran on {where}"
    made = chromium.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(e => e.outerHTML.slice(0, 120))", INJECTED)
    assert not made, f"{where} has elements made from a submission: {made}"


def test_the_injection_check_can_fail(js_admin_browser, admin):
    """The harness can fail: a planted element is seen, and so is a script's run (the pages' Content-Security-Policy
    would stop an inline handler, so the run is simulated)."""
    chromium = js_admin_browser
    sign_in(chromium, admin, "/admin/forms/event")
    assert_nothing_injected(chromium, "the table")
    chromium.execute_script(
        "document.querySelector('main').insertAdjacentHTML('beforeend', arguments[0])", XSS_TITLES[1])
    with pytest.raises(AssertionError, match="elements made from a submission"):
        assert_nothing_injected(chromium, "the table")
    chromium.execute_script("document.querySelector('main > img').remove(); window.__xss = 1")
    with pytest.raises(AssertionError, match="a script ran"):
        assert_nothing_injected(chromium, "the table")


def test_answers_show_as_text_and_run_nothing(js_admin_browser, admin):
    chromium = js_admin_browser
    # Defence in depth: were markup let through, the pages' policy would still refuse inline scripts and handlers.
    policy = requests.get(admin.url("/admin/sign-in"), timeout=support.HTTP_TIMEOUT).headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy, policy
    sign_in(chromium, admin, "/admin/forms/event?q=__xss")
    assert_nothing_injected(chromium, "the table searched for __xss")
    # The four titles (and their notes) and the location hold "__xss".
    assert sorted(column(chromium, "Title")) == sorted(XSS_TITLES + ["Injected location"])
    chromium.get(admin.url("/admin/forms/event?q=onmouseover"))
    assert column(chromium, "Location") == [XSS_LOCATION]
    assert_nothing_injected(chromium, "the table searched for onmouseover")

    for reference, title in zip(admin.xss_ids, XSS_TITLES + ["Injected location"]):
        chromium.get(admin.url(submission_path(reference)))
        shown = answers(chromium)
        assert shown["Title"] == title
        if title in XSS_TITLES:
            assert shown["Notes"] == title
        else:
            assert shown["Location"] == XSS_LOCATION
        assert_nothing_injected(chromium, submission_path(reference))
        chromium.get(admin.url(submission_path(reference) + "/delete"))
        assert_nothing_injected(chromium, submission_path(reference) + "/delete")

    # What is searched for goes back into the field's value, escaped.
    for text in XSS_TITLES:
        chromium.get(admin.url("/admin/forms/event?" + urllib.parse.urlencode({"q": text})))
        assert labelled(chromium, "Search the answers").get_attribute("value") == text
        assert text in column(chromium, "Title")
        assert_nothing_injected(chromium, f"the table searched for {text}")

    # So does the sign-in form's `next`, a page of the view that may hold a quote.
    next_page = '/admin/"><img src=x onerror=window.__xss=1>'
    chromium.get(admin.url("/admin/sign-in?" + urllib.parse.urlencode({"next": next_page})))
    assert chromium.find_element(By.CSS_SELECTOR, "input[name=next]").get_attribute("value") == next_page
    assert_nothing_injected(chromium, "the sign-in page")


# ---------------------------------------------------------------------------------------------------------------
# Refusals, by their statuses


WRONG_KEY = "fwk_" + "0" * 64


@pytest.fixture(scope="module")
def wrong_key(admin):
    """One wrong key sent (each costs a second and counts against the address): the answer, how long it took,
    and the session that sent it."""
    session = requests.Session()
    started = time.monotonic()
    response = sign_in_http(session, admin, WRONG_KEY, next_page="/admin/forms/event")
    elapsed = time.monotonic() - started
    try:
        yield response, elapsed, session
    finally:
        session.close()


def test_a_wrong_key_is_refused_a_second_late(wrong_key, admin):
    response, elapsed, session = wrong_key
    assert response.status_code == 401
    assert response.headers["Content-Type"].startswith("text/html")
    assert "That is not a key this server knows" in response.text
    assert "<title>Error: Sign in – Formwright</title>" in response.text
    assert re.search(r'<input id="fw-key"[^>]* aria-describedby="fw-key-error fw-key-help" aria-invalid="true"',
                     response.text), response.text
    assert elapsed >= 0.9, f"a wrong key was answered in {elapsed:.2f}s"
    assert SESSION_COOKIE not in session.cookies
    # The page it answers is a form that works: the right key from it goes on to where the first try went.
    retry = session.post(admin.url("/admin/sign-in"),
                         data={"_csrf": support.csrf_token(response.text), "next": "/admin/forms/event",
                               "key": admin.keys["admin"]},
                         allow_redirects=False, timeout=support.HTTP_TIMEOUT)
    assert retry.status_code == 303 and retry.headers["Location"] == "/admin/forms/event"


def test_a_key_that_may_not_read_is_refused(admin):
    with requests.Session() as session:
        response = sign_in_http(session, admin, admin.keys["poster"])
        assert response.status_code == 403
        assert "lacks the read scope" in response.text
        assert SESSION_COOKIE not in session.cookies
        assert_sent_to_sign_in(get(session, admin, "/admin"), "/admin")


def test_a_sign_in_without_its_token_is_refused(admin):
    with requests.Session() as session:
        response = sign_in_http(session, admin, admin.keys["admin"], token=False)
        assert response.status_code == 403
        assert "The sign-in form had expired" in response.text
        assert SESSION_COOKIE not in session.cookies


@pytest.mark.parametrize("next_page", ["https://evil.example/admin", "//evil.example/admin", "/forms/event",
                                       "/administrator"])
def test_a_sign_in_goes_on_only_to_a_page_of_the_view(admin, next_page):
    with requests.Session() as session:
        response = sign_in_http(session, admin, admin.keys["admin"], next_page=next_page)
        assert response.status_code == 303 and response.headers["Location"] == "/admin"


def test_a_reader_reads_but_may_not_delete_or_export(nojs_admin_browser, admin):
    chromium = nojs_admin_browser
    reference = admin.ids[LUNCH]
    sign_in(chromium, admin, submission_path(reference), key="reader")
    assert answers(chromium)["Title"] == LUNCH
    assert not has_link(chromium, "Delete")
    assert not chromium.find_elements(By.CSS_SELECTOR, "a[href$='/delete']")
    chromium.get(admin.url("/admin/forms/event"))
    assert not has_link(chromium, "CSV") and not has_link(chromium, "JSON lines")
    assert chromium.find_element(By.CSS_SELECTOR, "p.fw-exports").text == \
        "Exports need a key with the export scope."
    with support.browser_session(chromium) as session:
        confirm = get(session, admin, submission_path(reference) + "/delete")
        assert confirm.status_code == 403
        assert "The key reader lacks the delete scope this needs." in confirm.text
        token = page_token(get(session, admin, submission_path(reference)).text)
        erase = session.post(admin.url(submission_path(reference) + "/delete"), data={"_csrf": token},
                             allow_redirects=False, timeout=support.HTTP_TIMEOUT)
        assert erase.status_code == 403
        assert get(session, admin, submission_path(reference)).status_code == 200
        export = get(session, admin, "/admin/forms/event/export.csv")
        assert export.status_code == 403 and "lacks the export scope" in export.text


@pytest.mark.parametrize("value", [secrets.token_urlsafe(33), "made-up"], ids=["well-formed", "malformed"])
def test_a_made_up_session_is_sent_to_sign_in(admin, value):
    with requests.Session() as session:
        session.cookies.set(SESSION_COOKIE, value, path="/admin")
        response = get(session, admin, "/admin/forms/event?q=lunch")
        query = assert_sent_to_sign_in(response, "/admin/forms/event?q=lunch")
        assert query.get("ended") == ["1"]
        assert re.search(rf"{SESSION_COOKIE}=;[^,]*Max-Age=0", response.headers.get("Set-Cookie", "")), \
            response.headers
        assert "Add Event" not in response.text


def test_posts_without_the_pages_token_are_refused(admin):
    reference = admin.ids[LUNCH]
    with signed_in_session(admin) as session:
        token = page_token(get(session, admin, "/admin").text)
        tampered = ("A" if token[0] != "A" else "B") + token[1:]
        for body in ({}, {"_csrf": tampered}):
            response = session.post(admin.url("/admin/sign-out"), data=body, allow_redirects=False,
                                    timeout=support.HTTP_TIMEOUT)
            assert response.status_code == 403, body
            assert "That page had expired, so nothing was changed." in response.text
            erase = session.post(admin.url(submission_path(reference) + "/delete"), data=body,
                                 allow_redirects=False, timeout=support.HTTP_TIMEOUT)
            assert erase.status_code == 403, body
        # Nothing changed: still signed in, the submission still there.
        assert get(session, admin, "/admin").status_code == 200
        assert get(session, admin, submission_path(reference)).status_code == 200
        # A session's token is its own: another session's is refused.
        with signed_in_session(admin) as other:
            foreign = page_token(get(other, admin, "/admin").text)
        assert foreign != token
        response = session.post(admin.url("/admin/sign-out"), data={"_csrf": foreign}, allow_redirects=False,
                                timeout=support.HTTP_TIMEOUT)
        assert response.status_code == 403
        # With its own token it signs out.
        response = session.post(admin.url("/admin/sign-out"), data={"_csrf": token}, allow_redirects=False,
                                timeout=support.HTTP_TIMEOUT)
        assert response.status_code == 303 and response.headers["Location"] == "/admin/sign-in?out=1"


def test_chinese_readers_get_chinese_pages(admin):
    zh = {"Accept-Language": "zh-CN"}
    with signed_in_session(admin) as session:
        for path in ("/admin", "/admin/forms/event", submission_path(admin.ids[LUNCH])):
            page = get(session, admin, path, headers=zh)
            assert page.status_code == 200
            assert '<html lang="zh-Hans">' in page.text, path
            assert "退出登录" in page.text, path  # "Sign out"
        assert "<h1>提交记录</h1>" in get(session, admin, "/admin", headers=zh).text
    with requests.Session() as session:
        sign_in_page = get(session, admin, "/admin/sign-in", headers=zh)
        assert '<html lang="zh-Hans">' in sign_in_page.text and "API 密钥" in sign_in_page.text
    # The English form's title is marked as English on a Chinese page.
    with signed_in_session(admin) as session:
        overview = get(session, admin, "/admin", headers=zh).text
        assert '<a href="/admin/forms/event"><span lang="en">Add Event</span></a>' in overview


# ---------------------------------------------------------------------------------------------------------------
# Accessibility: axe in Chromium, in English and Chinese


def older_page(admin: Admin) -> str:
    with signed_in_session(admin) as session:
        html = get(session, admin, "/admin/forms/event").text
    match = re.search(r'<a href="(/admin/forms/event\?cursor=[0-9A-Z]{26})">Older submissions</a>', html)
    assert match, "the table has no link to older submissions"
    return match.group(1)


# Pages of a signed-in operator, by name: a path, or a function of the fixture giving one.
SIGNED_IN_PAGES = {
    "overview": "/admin",
    "table": "/admin/forms/event",
    "table-searched": "/admin/forms/event?q=lunch",
    "table-older": older_page,
    "table-nothing-found": "/admin/forms/event?q=nothing-has-this-word",
    "table-bad-range": "/admin/forms/event?since=2026-11-30&until=2026-11-01",
    "table-deleted-notice": "/admin/forms/event?deleted=01M8GKCFKDBJGJY7A4MM2XVZS6",
    "charts": "/admin/forms/event/charts",
    "charts-90": "/admin/forms/event/charts?days=90",
    "charts-none": "/admin/forms/account/charts",
    "submission": lambda admin: submission_path(admin.ids[LUNCH]),
    "delete-confirmation": lambda admin: submission_path(admin.ids[LUNCH]) + "/delete",
    "not-found": "/admin/forms/event/submissions/01M8GKCFKDBJGJY7A4MM2XVZS6",
}
SIGNED_OUT_PAGES = {
    "sign-in": "/admin/sign-in?next=%2Fadmin",
    "signed-out": "/admin/sign-in?out=1",
    "session-ended": "/admin/sign-in?next=%2Fadmin&ended=1",
}
ZH_PAGES = ["sign-in", "overview", "table", "charts", "submission", "delete-confirmation", "not-found"]


def page_path(admin: Admin, name: str) -> str:
    path = SIGNED_IN_PAGES.get(name) or SIGNED_OUT_PAGES[name]
    return path(admin) if callable(path) else path


def open_page(chromium, admin: Admin, name: str, heading: str | None = None) -> None:
    if name in SIGNED_IN_PAGES:
        sign_in(chromium, admin)
    chromium.get(admin.url(page_path(admin, name)))
    assert chromium.find_element(By.TAG_NAME, "h1").text, f"{name} has no heading"
    if heading is not None:
        assert chromium.find_element(By.TAG_NAME, "h1").text == heading


@pytest.mark.parametrize("name", [*SIGNED_OUT_PAGES, *SIGNED_IN_PAGES])
def test_axe_on_admin_page(js_admin_browser, admin, name):
    open_page(js_admin_browser, admin, name)
    check(js_admin_browser, f"/admin page {name} ({page_path(admin, name)})")


def test_axe_on_the_refused_sign_in(js_admin_browser, admin):
    chromium = js_admin_browser
    chromium.get(admin.url("/admin/sign-in?next=%2Fadmin"))
    labelled(chromium, "API key").send_keys("fwk_not-a-key")
    click_and_wait_for_page(chromium, button(chromium, "Sign in"))
    error = chromium.find_element(By.ID, "fw-key-error")
    assert error.text == "That is not a key this server knows. Check it and try again."
    assert support.active_element_id(chromium) == "fw-key"  # autofocus, with no script
    check(chromium, "/admin/sign-in (a wrong key)")


@pytest.mark.parametrize("name", ZH_PAGES)
def test_axe_on_admin_page_in_chinese(zh_browser, admin, name):
    chromium = zh_browser
    if name in SIGNED_IN_PAGES:
        chromium.get(admin.url("/admin"))
        assert chromium.find_element(By.TAG_NAME, "html").get_attribute("lang") == "zh-Hans"
        labelled(chromium, "API 密钥").send_keys(admin.keys["admin"])
        click_and_wait_for_page(chromium, button(chromium, "登录"))
        assert chromium.find_element(By.TAG_NAME, "h1").text == "提交记录"
    chromium.get(admin.url(page_path(admin, name)))
    assert chromium.find_element(By.TAG_NAME, "html").get_attribute("lang") == "zh-Hans"
    check(chromium, f"/admin page {name} in Chinese")


# ---------------------------------------------------------------------------------------------------------------
# The Nu HTML checker on every page, as the server sends it


VNU_PAGES = ([*SIGNED_OUT_PAGES, *SIGNED_IN_PAGES, "sign-in-refused", "lacks-scope", "stale-action"]
             + [f"{name}-zh" for name in ZH_PAGES])


@pytest.fixture(scope="module")
def admin_vnu_report(admin, wrong_key, tmp_path_factory):
    folder = tmp_path_factory.mktemp("admin-html")

    def save(name: str, response: requests.Response, status: int = 200) -> None:
        assert response.status_code == status, (name, response.status_code)
        assert response.headers["Content-Type"].startswith("text/html"), name
        (folder / f"{name}.html").write_text(response.text)

    with signed_in_session(admin) as session:
        for name in SIGNED_IN_PAGES:
            status = {"table-bad-range": 400, "not-found": 404}.get(name, 200)
            save(name, get(session, admin, page_path(admin, name)), status)
            if name in ZH_PAGES:
                save(f"{name}-zh", get(session, admin, page_path(admin, name), headers={"Accept-Language": "zh-CN"}),
                     status)
        save("stale-action", session.post(admin.url("/admin/sign-out"), allow_redirects=False,
                                          timeout=support.HTTP_TIMEOUT), 403)
    with requests.Session() as session:
        for name in SIGNED_OUT_PAGES:
            save(name, get(session, admin, page_path(admin, name)))
        save("sign-in-zh", get(session, admin, page_path(admin, "sign-in"), headers={"Accept-Language": "zh-CN"}))
    with signed_in_session(admin, "reader") as session:
        save("lacks-scope", get(session, admin, submission_path(admin.ids[LUNCH]) + "/delete"), 403)
    save("sign-in-refused", wrong_key[0], 401)
    return folder, run_vnu(folder, VNU_PAGES)


@pytest.mark.parametrize("page", VNU_PAGES)
def test_admin_page_is_valid_html(admin_vnu_report, page):
    folder, by_page = admin_vnu_report
    errors = page_errors(by_page, page)
    warnings = [m for m in by_page[page] if m.get("type") == "info" and m.get("subType") == "warning"
                and OUTDATED_WARNING not in m.get("message", "")]
    if warnings:
        conftest.NOTES.append(f"vnu warnings on admin {page}.html:\n" + format_messages(warnings))
    assert not errors, f"vnu errors in {folder / (page + '.html')}:\n" + format_messages(errors)


# ---------------------------------------------------------------------------------------------------------------
# The charts


def test_the_charts_count_the_answers(nojs_admin_browser, admin):
    chromium = nojs_admin_browser
    sign_in(chromium, admin, "/admin/forms/event/charts")
    assert chromium.find_element(By.TAG_NAME, "h1").text == "Charts"
    assert chromium.find_element(By.CSS_SELECTOR, "nav.fw-pages [aria-current=page]").text == "30 days"
    days = chromium.find_element(By.ID, "fw-days-summary").text
    assert days == f"{admin.count} in all; the most, {admin.count}, on {today_utc()}."
    # The Alert row's answers: five posts said "1 day before" (the XSS corpus), one "15 minutes before".
    figures = chromium.find_elements(By.CSS_SELECTOR, "figure.fw-chart")
    [alert] = [f for f in figures if f.find_element(By.TAG_NAME, "figcaption").text == "Alert"]
    summary = alert.find_element(By.CSS_SELECTOR, ".fw-chart-summary").text
    assert "1 day before: 5" in summary and "15 minutes before: 1" in summary, summary
    svg = alert.find_element(By.CSS_SELECTOR, "svg[role=img]")
    assert svg.get_attribute("aria-labelledby").split() == [
        alert.find_element(By.TAG_NAME, "figcaption").get_attribute("id"),
        alert.find_element(By.CSS_SELECTOR, ".fw-chart-summary").get_attribute("id")]
    click_and_wait_for_page(chromium, chromium.find_element(By.LINK_TEXT, "90 days"))
    assert chromium.current_url == admin.url("/admin/forms/event/charts?days=90")
    assert chromium.find_element(By.CSS_SELECTOR, "nav.fw-pages [aria-current=page]").text == "90 days"
    assert chromium.find_elements(By.CSS_SELECTOR, "#fw-days-caption")[0].text == \
        "Submissions per day, last 90 days"
    rows = chromium.execute_script(
        "return document.querySelectorAll('#fw-days-caption ~ details tbody tr').length")
    assert rows == 90


# ---------------------------------------------------------------------------------------------------------------
# A phone's width


PHONE_WIDTH = 375
PHONE_PAGES = ["sign-in", "overview", "table", "table-searched", "charts", "submission", "delete-confirmation"]


@pytest.fixture
def phone(js_admin_browser):
    js_admin_browser.set_window_size(PHONE_WIDTH, 800)
    try:
        yield js_admin_browser
    finally:
        js_admin_browser.set_window_size(1280, 1000)


@pytest.mark.parametrize("name", PHONE_PAGES)
def test_no_sideways_scroll_on_a_phone(phone, admin, name):
    chromium = phone
    open_page(chromium, admin, name)
    width = chromium.execute_script("return window.innerWidth")
    assert width == PHONE_WIDTH, f"the window is {width} px wide"
    scroll_width = chromium.execute_script("return document.documentElement.scrollWidth")
    # For the message: what sticks out. Text wider than its box (an unbreakable word), or a box past the window's
    # edge outside a table's frame, or inside one but positioned out of its clip (absolutely, to the page).
    wide = chromium.execute_script(
        """
        const width = window.innerWidth, found = [];
        for (const e of document.body.querySelectorAll('*')) {
            const style = getComputedStyle(e), right = e.getBoundingClientRect().right;
            const framed = e.parentElement && e.parentElement.closest('.fw-table-wrap');
            const escapes = !framed || style.position === 'absolute' || style.position === 'fixed';
            const spills = !framed && style.overflowX === 'visible' && e.scrollWidth > e.clientWidth + 1
                && e.clientWidth > 0 && !e.closest('.fw-table-wrap');
            if ((escapes && right > width + 0.5) || spills)
                found.push(`<${e.tagName.toLowerCase()} class="${e.getAttribute('class') || ''}">`
                    + ` right ${Math.round(right)} px, content ${e.scrollWidth} px, position ${style.position}: `
                    + (e.textContent || '').trim().slice(0, 50));
        }
        return found.slice(0, 10);
        """)
    assert scroll_width <= width, f"{name} scrolls sideways at {width} px: {scroll_width} px wide; what sticks out:\n" \
        + "\n".join(wide)


@pytest.mark.parametrize("name", ["overview", "table"])
def test_a_wide_table_scrolls_in_its_own_frame_on_a_phone(phone, admin, name):
    chromium = phone
    open_page(chromium, admin, name)
    frame = chromium.find_element(By.CSS_SELECTOR, "main .fw-table-wrap")
    overflow = chromium.execute_script("return getComputedStyle(arguments[0]).overflowX", frame)
    assert overflow in ("auto", "scroll")
    scroll, client = chromium.execute_script("return [arguments[0].scrollWidth, arguments[0].clientWidth]", frame)
    assert scroll > client, f"the table ({scroll} px) fits its frame ({client} px): nothing to scroll"
    assert client <= PHONE_WIDTH
    moved = chromium.execute_script("arguments[0].scrollLeft = 120; return arguments[0].scrollLeft", frame)
    assert moved > 0
    if name == "table":
        # A keyboard reaches the frame to scroll it; a screen reader hears what it holds.
        assert frame.get_attribute("tabindex") == "0" and frame.get_attribute("role") == "region"
        check(chromium, f"/admin page {name} at {PHONE_WIDTH} px")
