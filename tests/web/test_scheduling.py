"""A web process's threads run under the scheduling policy WEB_SCHED_BATCH chooses: the
event loop's and the request threads it starts (blaze_site.scheduling)."""

import os
import secrets
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests import servers

pytestmark = pytest.mark.skipif(not hasattr(os, "SCHED_BATCH"), reason="Linux's policies")


def _policies(pid: int) -> set[int]:
    return {os.sched_getscheduler(int(tid)) for tid in os.listdir(f"/proc/{pid}/task")}


@pytest.mark.parametrize("setting, policy", [("1", "SCHED_BATCH"), ("0", "SCHED_OTHER")])
def test_every_thread_of_a_web_process_runs_under_the_policy_chosen(tmp_path: Path, setting,
                                                                    policy):
    keep = {"PATH", "HOME", "LANG", "LC_ALL", "TMPDIR"}
    env = {k: v for k, v in os.environ.items() if k in keep}
    env.update(DJANGO_SETTINGS_MODULE="tests.abuse.schema_settings", DEBUG="0",
               SECRET_KEY=secrets.token_urlsafe(50), BLAZE_INMEMORY="1",
               DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}", WEB_SCHED_BATCH=setting)
    with servers.web(env, tmp_path / "web.log") as site:
        for _ in range(3):  # requests start the request threads
            try:
                urllib.request.urlopen(f"{site.url}/healthz", timeout=30).close()
            except urllib.error.HTTPError:
                pass  # (a 503 without Redis is an answer too)
        threads = len(os.listdir(f"/proc/{site.proc.pid}/task"))
        assert threads > 1 and _policies(site.proc.pid) == {getattr(os, policy)}
