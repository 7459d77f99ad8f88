"""A busy rate is counted in blocks: a process adds several counts to the shared counter at
once and spends them itself, and all processes together still let no more than the limit
through."""

from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
import time_machine

from lib import ratelimits
from lib.ratelimits import RateLimited, rate_limit_user

NOON = datetime(2026, 11, 23, 12, 0, 0, tzinfo=UTC)
PLAYER = SimpleNamespace(pk=4242, is_authenticated=True)


@pytest.fixture
def shared_counts(monkeypatch):
    """The counts each round trip added to the shared counter."""
    added = []
    count = ratelimits._count

    def counting(key, timeout, by=1):
        added.append(by)
        return count(key, timeout, by)

    monkeypatch.setattr(ratelimits, "_count", counting)
    return added


def _allowed(name: str) -> bool:
    try:
        rate_limit_user(PLAYER, name)
    except RateLimited:
        return False
    return True


def test_a_players_moves_cost_one_shared_count_for_each_block_of_twelve(
        settings, shared_counts):
    settings.BLAZE_RATE_LIMITS = {**settings.BLAZE_RATE_LIMITS, "move": "600/m"}
    with time_machine.travel(NOON, tick=False):
        assert all(_allowed("move") for _ in range(25))
    assert shared_counts == [12, 12, 12]  # the 1st, 13th and 25th move went to Redis


def test_processes_spending_their_blocks_never_let_more_than_the_limit_through(
        settings, shared_counts, monkeypatch):
    settings.BLAZE_RATE_LIMITS = {**settings.BLAZE_RATE_LIMITS, "move": "100/m"}
    processes = [{}, {}, {}]  # each process's own unspent blocks
    allowed = 0
    with time_machine.travel(NOON, tick=False):
        for i in range(200):
            monkeypatch.setattr(ratelimits, "_blocks", processes[i % 3])
            allowed += _allowed("move")
    # blocks of two: what another process holds unspent may refuse a little early
    assert 100 - 2 * 2 <= allowed <= 100
    assert set(shared_counts) == {2}


def test_the_last_block_is_cut_to_what_the_limit_has_left(settings, monkeypatch):
    settings.BLAZE_RATE_LIMITS = {**settings.BLAZE_RATE_LIMITS, "move": "100/m"}
    first, second = {}, {}
    with time_machine.travel(NOON, tick=False):
        monkeypatch.setattr(ratelimits, "_blocks", first)
        assert all(_allowed("move") for _ in range(99))  # 100 counted: one left unspent
        monkeypatch.setattr(ratelimits, "_blocks", second)
        assert not _allowed("move")  # the shared counter is full
        monkeypatch.setattr(ratelimits, "_blocks", first)
        assert _allowed("move")  # its own last count
        assert not _allowed("move")


def test_a_small_rate_is_counted_one_by_one(settings, shared_counts):
    settings.BLAZE_RATE_LIMITS = {**settings.BLAZE_RATE_LIMITS, "game_create": "30/h"}
    with time_machine.travel(NOON, tick=False):
        assert all(_allowed("game_create") for _ in range(30))
        assert not _allowed("game_create")
    assert shared_counts == [1] * 31


def test_a_new_window_starts_without_the_last_ones_block(settings, shared_counts):
    settings.BLAZE_RATE_LIMITS = {**settings.BLAZE_RATE_LIMITS, "move": "600/m"}
    with time_machine.travel(NOON, tick=False):
        assert _allowed("move")
    with time_machine.travel(NOON.replace(minute=5), tick=False):
        assert _allowed("move")
    assert shared_counts == [12, 12]
