"""/healthz for load balancers and the staff status page for operators."""

from datetime import timedelta

import pytest
from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret
from asgiref.sync import async_to_sync
from django.conf import settings as django_settings
from django.utils import timezone

from blaze_site.celery import app as celery_app
from games.live import live_sockets
from ops.models import Heartbeat, JobRun
from tests.conftest import make_user

from .test_tasks_run_twice import _stalled, _waiting_on_a_bot

pytestmark = pytest.mark.django_db
CLOSED_PORT_URL = "redis://127.0.0.1:8797/0"  # nothing listens there


def _heartbeats(age_seconds: float = 0) -> None:
    """A worker and beat last seen `age_seconds` ago (ops.heartbeat's rows)."""
    at = timezone.now() - timedelta(seconds=age_seconds)
    for part in ("worker", "beat"):
        Heartbeat.objects.update_or_create(part=part, defaults={"at": at})


def test_healthz_says_every_part_answers(client):
    _heartbeats()
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Cache-Control"].startswith("max-age=0")
    body = response.json()
    assert body["status"] == "ok"
    redis = background = "not used" if django_settings.BLAZE_INMEMORY else "ok"
    assert body["checks"] == {"database": "ok", "redis": redis, "channel_layer": "ok",
                              "worker": background, "beat": background}


def test_healthz_fails_when_the_worker_and_beat_are_silent(client, settings):
    settings.BLAZE_INMEMORY = False  # a site with a worker (eager tasks have none)
    settings.CELERY_TASK_ALWAYS_EAGER = False
    _heartbeats(age_seconds=10 * settings.BLAZE_HEARTBEAT_SECONDS)
    response = client.get("/healthz")
    assert response.status_code == 503
    checks = response.json()["checks"]
    assert checks["worker"] == checks["beat"] == "failing"
    assert "T" not in "".join(checks.values())  # no timestamp, no detail


def test_a_failing_check_is_one_warning_line_not_a_traceback(client, settings, caplog):
    _heartbeats()
    settings.BLAZE_INMEMORY = False
    settings.CELERY_BROKER_URL = CLOSED_PORT_URL
    with caplog.at_level("WARNING", logger="ops.health"):
        client.get("/healthz")
    records = [r for r in caplog.records if r.name == "ops.health"]
    assert len(records) == 1 and records[0].levelname == "WARNING"
    assert "redis" in records[0].getMessage() and records[0].exc_info is None
    assert "\n" not in records[0].getMessage()


def test_healthz_fails_with_503_when_redis_is_down_and_tells_no_address(client, settings):
    settings.BLAZE_INMEMORY = False
    settings.CELERY_BROKER_URL = CLOSED_PORT_URL
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["status"] == "failing"
    assert response.json()["checks"]["redis"] == "failing"
    text = response.content.decode()
    assert "8797" not in text and "redis://" not in text and "127.0.0.1" not in text


def test_healthz_answers_only_get(client):
    assert client.post("/healthz").status_code == 405


@pytest.fixture
def staff(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return make_user("operator", is_staff=True)


@pytest.fixture
def staff_client(client, staff):
    TOTP.activate(staff, generate_totp_secret())  # staff sign in with two factors
    client.force_login(staff)
    return client


def test_the_status_page_is_for_staff_with_two_factors_only(client, ann, staff):
    assert client.get("/staff/status/").status_code == 302
    client.force_login(ann)
    response = client.get("/staff/status/")
    assert response.status_code == 302 and "login" in response["Location"]
    client.force_login(staff)
    response = client.get("/staff/status/")
    assert response.status_code == 302 and response["Location"] == "/account/2fa/totp/activate/"


def test_the_status_page_shows_stalled_games_jobs_and_sockets(staff_client, ann, settings):
    settings.BOT_PAUSE_SECONDS = 0
    game = _stalled(_waiting_on_a_bot(ann))
    async_to_sync(live_sockets.opened)()
    try:
        page = staff_client.get("/staff/status/").content.decode()
    finally:
        async_to_sync(live_sockets.closed)()
    assert f'href="/games/{game.pk}/"' in page.split('id="stalled"')[1]
    assert "1 game waits on a bot." in page and "1 is stalled." in page
    jobs = page.split('id="jobs"')[1].split("</table>")[0]
    for entry in django_settings.CELERY_BEAT_SCHEDULE.values():
        assert entry["task"] in jobs
    assert "never" in jobs
    sockets = page.split('id="sockets"')[1].split("</table>")[0]
    assert live_sockets.PROCESS in sockets and "<td>1</td>" in sockets
    if not django_settings.BLAZE_INMEMORY:
        queues = page.split('id="queues"')[1].split("</table>")[0]
        assert f"<code>{django_settings.CELERY_TASK_DEFAULT_QUEUE}.bots</code>" in queues


def test_a_periodic_job_records_its_last_run(settings):
    celery_app.loader.import_default_modules()
    settings.CELERY_TASK_ALWAYS_EAGER = True
    celery_app.tasks["games.tasks.bots_watchdog"].apply().get()
    celery_app.tasks["games.tasks.bots_watchdog"].apply().get()
    run = JobRun.objects.get(task="games.tasks.bots_watchdog")
    assert run.runs == 2 and run.ok and run.finished >= run.started
    celery_app.tasks["games.tasks.bot_move"].apply((0, 0)).get()  # not periodic
    assert not JobRun.objects.filter(task="games.tasks.bot_move").exists()
