import os
import shutil
from types import SimpleNamespace

import pytest

from tests import servers

CHROMIUM = os.environ.get("BLAZE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="module")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip("no Chromium at /usr/bin/chromium (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop running in this thread while it is open;
    # the ORM calls of the tests and their database teardown are still synchronous ones.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM,
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                      "--disable-component-update", "--disable-sync", "--no-first-run"],
            )
            yield browser
            browser.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844})  # a phone
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert not errors, f"the page's scripts failed: {errors}"


@pytest.fixture
def live_asgi(transactional_db, tmp_path, request):
    """A real uvicorn (HTTP + WebSocket) on a free port, against this run's test database.

    Yields an object with `url` and `mail_dir` (one file per sent email). Bot turns run
    eagerly inside the server process (tests/e2e/server_settings.py).
    """
    from django.conf import settings

    database_url = servers.database_url(settings.DATABASES["default"])
    if database_url is None:
        pytest.skip("the browser game test needs PostgreSQL (DATABASE_URL=postgres://…)")
    mail_dir = tmp_path / "mail"
    mail_dir.mkdir()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.e2e.server_settings",
        "DATABASE_URL": database_url,
        "BLAZE_E2E_MAIL_DIR": str(mail_dir),
        "BLAZE_E2E_DEAL_SEED": request.node.nodeid,
        "BLAZE_BOT_BUDGET_MS": os.environ.get("BLAZE_BOT_BUDGET_MS", "50"),
        "DEBUG": "1",  # WhiteNoise serves static files from the finders
        "BLAZE_ENV": "development",
    }
    log = tmp_path / "web.log"
    with servers.web(env, log) as site:
        yield SimpleNamespace(url=site.url, mail_dir=mail_dir, log=log)
