"""`make test`'s processes (scripts/test_env.sh): each its own channel prefix and queues."""

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _test_args(**env) -> list[str]:
    script = 'source scripts/test_env.sh >/dev/null; printf "%s\\n" "${BLAZE_TEST_ARGS[@]}"'
    done = subprocess.run(["bash", "-c", script], cwd=ROOT, capture_output=True, text=True,
                          check=True, env={"PATH": "/usr/bin:/bin", "DATABASE_URL": "sqlite://",
                                           "BLAZE_INMEMORY": "1", **env})
    return [line for line in done.stdout.splitlines() if line]


def test_each_test_process_has_its_own_channel_prefix_and_queues():
    args = _test_args(TEST_PROCESSES="3", CHANNEL_LAYER_PREFIX="mine",
                      CELERY_TASK_DEFAULT_QUEUE="myq")
    specs = [args[i + 1] for i, arg in enumerate(args) if arg == "--tx"]
    assert specs == [f"popen//env:CHANNEL_LAYER_PREFIX=mine-t{i}"
                     f"//env:CELERY_TASK_DEFAULT_QUEUE=myq-t{i}" for i in (1, 2, 3)]
    assert args[:4] == ["-p", "xdist", "--dist", "loadfile"]


def test_one_test_process_runs_the_suite_in_pytest_itself():
    assert _test_args(TEST_PROCESSES="1") == []
