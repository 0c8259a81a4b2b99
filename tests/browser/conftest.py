"""Browser fixtures: Debian's Chromium driven by Playwright (never
`playwright install`), at a phone's viewport, against the live waitress
server from tests/conftest.py."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect, sync_playwright

from referee import live

# A machine running other work (a CI runner, the test suites side by side) can take seconds to reload a page
# and put its drafts back: an expectation waits up to 15 s (it returns as soon as it holds).
expect.set_options(timeout=15_000)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture
def phone(browser):
    """A fresh phone-sized browser context (its own cookies = its own seat)."""
    contexts = []

    def new_phone(locale: str = "en-US"):
        """The phone's own language (its Accept-Language): English unless a test says otherwise."""
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2,
                                      locale=locale)
        contexts.append(context)
        page = context.new_page()
        page.console_messages = []
        page.on("console", lambda msg: page.console_messages.append(f"{msg.type}: {msg.text}"))
        return page

    yield new_phone
    for context in contexts:
        context.close()


def wait_for_subscribers(match_id: str, count: int, timeout: float = 10.0) -> None:
    """Until `count` phones hold the match's live stream open (the doorbell reaches them)."""
    end = time.monotonic() + timeout
    while live.broker.subscriber_count(match_id) < count:
        if time.monotonic() > end:
            raise AssertionError("the pages never opened their event streams")
        time.sleep(0.02)
