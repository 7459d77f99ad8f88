import json
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "engine" / "data"  # the public examples
ROOT = Path(__file__).resolve().parents[2]


def test_manage_blaze_replay_matches_the_public_examples():
    out = subprocess.run([sys.executable, "manage.py", "blaze_replay",
                          str(EXAMPLES / "examples.jsonl")],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    expected = (EXAMPLES / "examples.expected.jsonl").read_text().splitlines()
    assert [json.loads(x) for x in out.splitlines()] == [json.loads(x) for x in expected if x]


def test_manage_blaze_replay_reads_stdin_and_answers_bad_lines_without_traceback():
    run = subprocess.run([sys.executable, "manage.py", "blaze_replay", "-"], cwd=ROOT,
                         input='{"format": "blaze-record/1"}\n\n\xff\n', capture_output=True,
                         text=True)
    assert run.returncode == 0 and "Traceback" not in run.stderr
    lines = [json.loads(x) for x in run.stdout.splitlines()]
    assert len(lines) == 2 and all(line["ok"] is False for line in lines)


def test_manage_blaze_replay_exits_nonzero_for_a_missing_file():
    run = subprocess.run([sys.executable, "manage.py", "blaze_replay", "/nonexistent.jsonl"],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode != 0 and "Traceback" not in run.stderr


def _run(*args, stdin=""):
    return subprocess.run([sys.executable, *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True)


def test_the_replay_starts_without_django_and_answers_as_the_django_command_does():
    examples = str(EXAMPLES / "examples.jsonl")
    fast = _run("-X", "importtime", "manage.py", "blaze_replay", examples)
    assert fast.returncode == 0
    imported = {line.split("|")[-1].strip() for line in fast.stderr.splitlines()}
    assert "games.engine.cli" in imported and not {m for m in imported if m.startswith(
        ("django", "celery", "kombu", "redis", "channels"))}
    # the same command through Django (an option sends it there): the same answers
    django = _run("manage.py", "blaze_replay", "-v", "1", examples)
    assert django.returncode == 0 and django.stdout == fast.stdout
    missing = [_run("manage.py", "blaze_replay", *extra, "/nonexistent.jsonl")
               for extra in ([], ["-v", "1"])]
    assert [r.returncode for r in missing] == [1, 1]
    assert missing[0].stderr == missing[1].stderr == (
        "CommandError: cannot read /nonexistent.jsonl: No such file or directory\n")
