import json
import subprocess
import sys
from pathlib import Path

from games.engine import replay_line

EXAMPLES = Path(__file__).resolve().parent / "data"  # a copy of the spec's public examples


def _pairs():
    records = [line for line in (EXAMPLES / "examples.jsonl").read_text().splitlines()
               if line.strip()]
    expected = [json.loads(line) for line in
                (EXAMPLES / "examples.expected.jsonl").read_text().splitlines() if line.strip()]
    assert len(records) == len(expected) > 0
    return list(zip(records, expected))


def test_public_examples_replay_to_the_expected_lines():
    for record, expected in _pairs():
        assert replay_line(record) == expected


def test_replay_cli_prints_one_line_per_record_and_skips_blank_lines():
    text = "\n\n".join(r for r, _ in _pairs()) + "\n\nnot json\n"
    result = subprocess.run([sys.executable, "-m", "games.engine.cli", "-"], input=text,
                            capture_output=True, text=True, check=True)
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[:-1] == [e for _, e in _pairs()]
    assert lines[-1]["ok"] is False and lines[-1]["round"] is None
    assert result.stderr == ""


def test_replay_cli_fails_on_an_unreadable_file_without_traceback():
    result = subprocess.run([sys.executable, "-m", "games.engine.cli", "/nonexistent/x.jsonl"],
                            capture_output=True, text=True)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr and "cannot read" in result.stderr


def test_benchmark_script_runs_and_reports_every_player_count():
    result = subprocess.run([sys.executable, "-m", "games.engine.bench", "--seconds", "0.1"],
                            capture_output=True, text=True, check=True)
    rows = [line.split() for line in result.stdout.splitlines()[1:]]
    assert [row[0] for row in rows] == ["3", "4", "5"]
    assert all(float(row[1]) > 0 and float(row[4]) > 0 for row in rows)


def test_replay_cli_accepts_a_byte_order_mark_before_the_first_record():
    record, expected = _pairs()[0]
    result = subprocess.run([sys.executable, "-m", "games.engine.cli", "-"],
                            input=("\ufeff" + record + "\n").encode("utf-8"),
                            capture_output=True, check=True)
    assert json.loads(result.stdout) == expected
