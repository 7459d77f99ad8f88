import subprocess
import sys

from games.bots.arena import run


def test_arena_reports_rates_with_intervals():
    r = run(4, 8, "strong", "basic", iterations=10, seed=3)
    assert r["games"] == 8 and r["ranked"] + r["unfinished"] == 8
    lo, hi = r["win_ci"]
    assert 0.0 <= lo <= r["win_rate"] <= hi <= 1.0
    assert 1.0 <= r["mean_rank"][0] <= 4.0
    assert r["think_p95_ms"] <= r["think_max_ms"]
    assert r["iterations"] > 0 and r["iterations_per_s"] > 0


def test_arena_command_prints_its_figures():
    out = subprocess.run(
        [sys.executable, "-m", "games.bots.arena", "--players", "3", "--games", "3",
         "--bot", "basic", "--vs", "random", "--seed", "2"],
        capture_output=True, text=True, check=True, timeout=60,
    )
    for field in ("win rate:", "95% CI", "mean rank:", "mean score:", "median", "p95", "max"):
        assert field in out.stdout
    assert "3/3" in out.stderr


def test_basic_bots_never_circle_to_the_move_cap():
    r = run(3, 30, "basic", "basic", seed=4, max_moves=1500)
    assert r["unfinished"] == 0
