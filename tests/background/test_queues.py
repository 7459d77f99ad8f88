"""Tasks go to queues by kind, named after the site's prefix; they are acknowledged late."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from blaze_site.celery import app as celery_app
from clocks.clocks import LIVE_CHECK_MAX_SECONDS
from lib.queues import queue_names, task_routes

PREFIX = settings.CELERY_TASK_DEFAULT_QUEUE
ROOT = Path(__file__).resolve().parents[2]


def _queue_of(task_name: str) -> str:
    return celery_app.amqp.router.route({}, task_name)["queue"].name


def test_bot_turns_clocks_and_mail_each_have_a_queue_named_after_the_prefix():
    assert _queue_of("games.tasks.bot_move") == f"{PREFIX}.bots"
    assert _queue_of("clocks.tasks.deadline_check") == f"{PREFIX}.clocks"
    assert _queue_of("clocks.tasks.clocks_sweep") == f"{PREFIX}.clocks"
    assert _queue_of("games.tasks.bots_watchdog") == f"{PREFIX}.clocks"
    assert _queue_of("notifications.tasks.notification_send") == f"{PREFIX}.mail"
    assert _queue_of("notifications.tasks.send_digests") == f"{PREFIX}.mail"
    assert _queue_of("ratings.tasks.rating_update") == PREFIX


def test_tasks_queued_under_their_names_before_the_split_still_run_where_they_did():
    """clocks and notifications were one app, "correspondence": a task it queued (a live
    deadline check waits in the broker for minutes) is still taken and routed."""
    celery_app.loader.import_default_modules()
    for old, new in [("correspondence.tasks.deadline_check", "clocks.tasks.deadline_check"),
                     ("correspondence.tasks.clocks_sweep", "clocks.tasks.clocks_sweep"),
                     ("correspondence.tasks.notification_send",
                      "notifications.tasks.notification_send"),
                     ("correspondence.tasks.send_digests", "notifications.tasks.send_digests")]:
        assert old in celery_app.tasks and new in celery_app.tasks
        assert _queue_of(old) == _queue_of(new)


def test_a_plain_worker_reads_every_queue_of_its_site_and_no_other():
    assert [q.name for q in celery_app.conf.task_queues] == queue_names(PREFIX)
    # A task sent to one queue lands in that one only (no two share a binding).
    bindings = [(q.exchange.name, q.routing_key) for q in celery_app.conf.task_queues]
    assert bindings == [(name, name) for name in queue_names(PREFIX)]
    ours, theirs = set(queue_names("blaze_a")), set(queue_names("blaze_b"))
    assert not ours & theirs
    routed = {r["queue"] for r in task_routes("blaze_a").values()}
    assert routed <= ours


def test_tasks_are_acknowledged_after_they_run_and_requeued_when_the_worker_dies():
    celery_app.loader.import_default_modules()
    ours = [t for name, t in celery_app.tasks.items() if not name.startswith("celery.")]
    assert ours
    assert all(t.acks_late and t.reject_on_worker_lost for t in ours)


def test_a_countdown_task_is_never_handed_out_twice_by_the_broker():
    # Redis gives an unacknowledged task to another worker after the visibility timeout;
    # a live deadline check is held unacknowledged until its countdown ends.
    timeout = celery_app.conf.broker_transport_options["visibility_timeout"]
    assert timeout > LIVE_CHECK_MAX_SECONDS + settings.BOT_PAUSE_SECONDS + 300


@pytest.mark.parametrize("name, value", [
    ("CELERY_BROKER_VISIBILITY_TIMEOUT", "900"),  # shorter than a deadline check's wait
    ("BLAZE_WATCHDOG_SECONDS", "0"),
])
def test_a_setting_that_would_lose_or_repeat_work_stops_the_start(name, value):
    env = {**os.environ, name: value}
    result = subprocess.run([sys.executable, "-c", "import blaze_site.settings"], cwd=ROOT,
                            env=env, capture_output=True, text=True)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and name in result.stderr
