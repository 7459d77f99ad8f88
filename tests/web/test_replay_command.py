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
