"""The load benchmark's options and its timeline of the window, without a server."""

import argparse
from types import SimpleNamespace

import pytest

from bench import loadtest


def test_the_timeline_gives_each_slice_of_the_window_its_own_rate_and_latencies(capsys):
    run = SimpleNamespace(window_start=100.0,
                          post_at=[100.5, 101.0, 104.9, 105.0, 109.0],
                          post_ms=[10.0, 20.0, 30.0, 400.0, 500.0])
    loadtest._print_timeline(run, 5)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    first, second = lines
    assert "0-5" in first and "moves/s    0.6" in first and "max     30" in first
    assert "5-10" in second and "moves/s    0.4" in second and "p50   500" in second


@pytest.mark.parametrize("text", ["0", "-5", "soon", "nan"])
def test_a_timeline_slice_must_be_a_positive_number_of_seconds(text):
    with pytest.raises(argparse.ArgumentTypeError, match="above 0"):
        loadtest._positive(text)


def test_a_bad_timeline_is_refused_before_anything_runs(capsys):
    with pytest.raises(SystemExit) as exit_:
        loadtest.main(["--tokens", "none.txt", "--timeline", "0", "http://127.0.0.1:1"])
    assert exit_.value.code == 2
    assert "a number of seconds above 0" in capsys.readouterr().err
