"""What the browser tests share without importing it: one Chromium per test module."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from test_phone import chromium


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium for a whole test module; each test opens its own context."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as playwright:
        opened = chromium(playwright)
        yield opened
        opened.close()
