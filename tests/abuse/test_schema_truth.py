"""The OpenAPI schema tells the truth: a bounded schemathesis run against a live server.

A real uvicorn serves the site from its own SQLite file (so the run needs neither
PostgreSQL nor this test run's database); schemathesis generates 25 requests per
operation, follows the schema's links from a new game (stateful phase) and applies every
check (status codes, content types, response schemas, negative and positive data,
authentication, unsupported methods). Any failure fails the test with its report.
"""

import os
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from lib.vapid import new_private_key
from tests import servers

ROOT = servers.ROOT
CONFIG = Path(__file__).with_name("schemathesis.toml")
EXAMPLES = 25


def _manage(env, *args) -> str:
    result = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


@pytest.fixture
def live_site(tmp_path):
    """The web server on a free port over a fresh SQLite database; yields (url, token)."""
    keep = {"PATH", "HOME", "LANG", "LC_ALL", "SYSTEMROOT", "TMPDIR"}
    env = {k: v for k, v in os.environ.items() if k in keep}
    env.update(
        DJANGO_SETTINGS_MODULE="tests.abuse.schema_settings", DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}", BLAZE_INMEMORY="1",
        BLAZE_BOT_BUDGET_MS="20", BOT_PAUSE_SECONDS="0", ACCOUNT_RATE_LIMITS_ENABLED="0",
        # the run exercises the operations, not the quotas (tests of their own cover those)
        BLAZE_RATE_GAME_CREATE="100000/h", BLAZE_RATE_RECORD_IMPORT="100000/d",
        BLAZE_MAX_WAITING_TABLES="100000", BLAZE_MAX_STRONG_BOT_SEATS="100000",
        WEBPUSH_VAPID_PRIVATE_KEY=new_private_key(),  # push is set up: no 503 to report
    )
    _manage(env, "migrate", "--noinput", "-v0")
    token = _manage(env, "blaze_token", "schema-tester").strip().splitlines()[-1]
    with servers.web(env, tmp_path / "web.log") as site:
        yield site.url, token


def test_the_api_answers_as_its_openapi_schema_says(live_site, tmp_path):
    st = shutil.which("st", path=str(Path(sys.executable).parent))
    if st is None:
        pytest.skip("schemathesis is not installed (pip install -e '.[dev]')")
    url, token = live_site
    result = subprocess.run(
        [st, "--no-color", "--config-file", str(CONFIG), "run",
         f"{url}/api/v1/openapi.json", "-H", f"Authorization: Bearer {token}",
         "--checks", "all", "--max-examples", str(EXAMPLES), "--workers", "1",
         "--seed", "20261123", "--generation-database", "none",
         "--report-dir", str(tmp_path / "report")],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )
    summary = result.stdout[-6000:]
    assert result.returncode == 0, summary
    assert "Stateful" in summary and "passed" in summary
