import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.servers import free_port, wait_for_port

ROOT = Path(__file__).resolve().parents[2]
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


def _database_url(settings_dict) -> str | None:
    """The test database as a URL for another process; None when it cannot be shared."""
    if "postgresql" not in settings_dict["ENGINE"]:
        return None  # pytest-django's SQLite test database lives in this process's memory
    user, password = settings_dict.get("USER") or "", settings_dict.get("PASSWORD") or ""
    auth = user + (f":{password}" if password else "") + ("@" if user else "")
    host, port = settings_dict.get("HOST") or "127.0.0.1", settings_dict.get("PORT") or 5432
    return f"postgres://{auth}{host}:{port}/{settings_dict['NAME']}"


@pytest.fixture
def live_asgi(transactional_db, tmp_path):
    """A real daphne (HTTP + WebSocket) on a free port, against this run's test database.

    Yields an object with `url` and `mail_dir` (one file per sent email). Bot turns run
    eagerly inside the server process (tests/e2e/server_settings.py).
    """
    from django.conf import settings

    database_url = _database_url(settings.DATABASES["default"])
    if database_url is None:
        pytest.skip("the browser game test needs PostgreSQL (DATABASE_URL=postgres://…)")
    mail_dir = tmp_path / "mail"
    mail_dir.mkdir()
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.e2e.server_settings",
        "DATABASE_URL": database_url,
        "BLAZE_E2E_MAIL_DIR": str(mail_dir),
        "BLAZE_BOT_BUDGET_MS": os.environ.get("BLAZE_BOT_BUDGET_MS", "50"),
        "DEBUG": "1",  # WhiteNoise serves static files from the finders
        "BLAZE_ENV": "development",
    }
    log = open(tmp_path / "daphne.log", "w")  # noqa: SIM115
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
         "blaze_site.asgi:application"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    try:
        log.flush()
        wait_for_port(server, port, tmp_path / "daphne.log")
        yield SimpleNamespace(url=f"http://127.0.0.1:{port}", mail_dir=mail_dir,
                              log=tmp_path / "daphne.log")
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
