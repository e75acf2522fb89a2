"""Fixtures: one formwright server and two Chromiums (JavaScript on, JavaScript off) for the whole session."""

from __future__ import annotations

import signal

import pytest
import requests

import support



def _interrupt(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


# run.sh bounds the run with `timeout`, which sends SIGTERM: as an interrupt, pytest still runs the fixtures'
# finally blocks, so the server and the browsers we started are stopped.
signal.signal(signal.SIGTERM, _interrupt)

# Findings that do not fail a test (axe's moderate and minor impacts, the validator's warnings), printed at the end.
NOTES: list[str] = []


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    log_dir = tmp_path_factory.mktemp("server")
    running = support.start_server(log_dir / "formwright.log")
    try:
        yield running
    finally:
        support.stop_process(running.process)
    # Reached only when the session's tests are done: the server must have stopped by itself on SIGTERM.
    assert running.process.returncode == 0, f"formwright exited with {running.process.returncode}:\n{running.log()}"


@pytest.fixture(scope="session")
def fixture_server(tmp_path_factory):
    """A second formwright serving Tests/Browser/forms/: descriptors made for what the examples do not show,
    reported defects' reproductions among them."""
    log_dir = tmp_path_factory.mktemp("fixture-server")
    running = support.start_server(log_dir / "formwright.log", forms=support.FIXTURE_FORMS)
    try:
        yield running
    finally:
        support.stop_process(running.process)
    assert running.process.returncode == 0, f"formwright exited with {running.process.returncode}:\n{running.log()}"


def _chromium(javascript: bool, tmp_path_factory):
    chromium = support.new_chromium(javascript, tmp_path_factory.mktemp("chromium"))
    try:
        yield chromium
    finally:
        chromium.quit()


@pytest.fixture(scope="session")
def _chromium_js(tmp_path_factory):
    yield from _chromium(True, tmp_path_factory)


@pytest.fixture(scope="session")
def _chromium_nojs(tmp_path_factory):
    yield from _chromium(False, tmp_path_factory)


@pytest.fixture
def js_browser(_chromium_js, server):
    """Chromium with JavaScript (the default), fresh for each test."""
    support.reset(_chromium_js)
    return _chromium_js


@pytest.fixture
def nojs_browser(_chromium_nojs, server):
    """Chromium with JavaScript turned off by content setting: the page's scripts never run."""
    support.reset(_chromium_nojs)
    return _chromium_nojs


@pytest.fixture
def http(server):
    """A requests session for one test (its own CSRF cookie)."""
    with requests.Session() as session:
        yield session


def pytest_terminal_summary(terminalreporter):
    if NOTES:
        terminalreporter.section("accessibility and validity notes (not failures)")
        for note in NOTES:
            terminalreporter.write_line(note)
