import os
import shutil

import pytest

CHROMIUM = os.environ.get("BLAZE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"

# Playwright's sync API runs an event loop in this thread; the ORM calls made by
# live_server fixtures here are still plain synchronous ones.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip("no Chromium at /usr/bin/chromium (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844})  # a phone
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()
