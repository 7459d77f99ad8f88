"""bench/drills.py's options and helpers, without running a drill (the drills themselves are
a benchmark: `python -m bench.drills worker-kill|redis-restart|healthz`)."""

import pytest

from bench import drill_stack, drills


def test_each_drill_has_its_issue_target_by_default():
    assert drills.parse(["worker-kill"]).target == 60
    assert drills.parse(["redis-restart"]).target == 30
    healthz = drills.parse(["healthz"])
    assert (healthz.calls, healthz.target_mb) == (5000, 10)
    assert drills.parse(["worker-kill", "--target", "90"]).target == 90


def test_an_unknown_drill_or_no_web_process_is_refused(capsys):
    for argv in (["flood"], ["healthz", "--web", "0"]):
        with pytest.raises(SystemExit):
            drills.parse(argv)
    assert "--web" in capsys.readouterr().err


def test_the_percentile_is_the_nearest_rank():
    assert drills.percentile([], 95) == 0
    assert drills.percentile([3.0], 95) == 3.0
    assert drills.percentile([float(i) for i in range(1, 21)], 95) == 19.0
    assert drills.percentile([float(i) for i in range(1, 21)], 100) == 20.0


def test_the_drill_site_uses_its_own_redis_queues_and_channel_names():
    env = drill_stack.site_env("postgres://postgres@127.0.0.1:5432/blaze_drills",
                               "redis://127.0.0.1:7001/0", "d1")
    assert env["REDIS_URL"] == env["CELERY_BROKER_URL"] == "redis://127.0.0.1:7001/0"
    assert env["CACHE_URL"] == "redis://127.0.0.1:7001/1"
    assert (env["CELERY_TASK_DEFAULT_QUEUE"], env["CHANNEL_LAYER_PREFIX"]) == ("q_d1", "p_d1")
    assert env["BLAZE_ENV"] == "production" and env["DEBUG"] == "0"
