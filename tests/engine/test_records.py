"""Bad records: each fault is reported with its round and ply, never a traceback."""

import copy
import json
import random

import pytest

from games.engine import export_record, new_game, random_move, replay_line


def _record(n=4, seed=5, moves=None, finish=False):
    rng = random.Random(seed)
    s = new_game(n, rng)
    k = 0
    while not s.finished and (finish or k < (moves or 0)):
        s.apply(random_move(s, rng))
        k += 1
    return export_record(s, ["ann", "bob", "cat", "dan", "eve"][:n])


def _result(record) -> dict:
    return replay_line(record if isinstance(record, str) else json.dumps(record))


def _where(record):
    out = _result(record)
    assert out["ok"] is False and out["error"]
    return out["round"], out["ply"]


@pytest.fixture
def finished():
    return _record(finish=True)


def test_a_finished_record_replays_ok(finished):
    out = _result(finished)
    assert out["ok"] and out["finished"] and len(out["ranking"]) == 4


@pytest.mark.parametrize("text", ["", "not json", "[1, 2]", "null", '"x"', "{"])
def test_text_that_is_not_a_record_object_fails_outside_any_round(text):
    out = _result(text)
    assert (out["ok"], out["round"], out["ply"]) == (False, None, None)


@pytest.mark.parametrize("change", [
    lambda r: r.update(format="blaze-record/2"),
    lambda r: r.pop("format"),
    lambda r: r.update(players=["a", "b"]),
    lambda r: r.update(players=["a"] * 6),
    lambda r: r.update(players="abcd"),
    lambda r: r.update(rounds=[]),
    lambda r: r.update(rounds={}),
    lambda r: r.update(rounds=r["rounds"] * 2),
])
def test_bad_format_players_or_rounds_fail_outside_any_round(finished, change):
    change(finished)
    assert _where(finished) == (None, None)


@pytest.mark.parametrize("number, change", [
    (1, lambda r: r["rounds"][0]["hands"][1].pop()),
    (1, lambda r: r["rounds"][0]["hands"].pop()),
    (1, lambda r: r["rounds"][0]["hands"][0].__setitem__(0, "R10")),
    (1, lambda r: r["rounds"][0]["hands"][0].__setitem__(0, "r5")),
    (1, lambda r: r["rounds"][0]["deck"].pop()),
    (1, lambda r: r["rounds"][0].pop("start")),
    (1, lambda r: r["rounds"][0].update(start=4)),
    (1, lambda r: r["rounds"][0].update(start=True)),
    (1, lambda r: r["rounds"][0].pop("moves")),
    (2, lambda r: r["rounds"][1].update(moves={})),
    (1, lambda r: r["rounds"][0]["hands"][0].__setitem__(0, r["rounds"][1]["deck"][0])
     or r["rounds"][0]["hands"][1].__setitem__(0, r["rounds"][1]["deck"][0])
     or r["rounds"][0]["hands"][2].__setitem__(0, r["rounds"][1]["deck"][0])),
    (2, lambda r: r["rounds"][1]["hands"][0].pop()),
    (2, lambda r: r["rounds"][1]["deck"].pop()),
    (2, lambda r: r["rounds"][1]["deck"].__setitem__(0, r["rounds"][0]["deck"][0])),
    (2, lambda r: r["rounds"][1].update(start=(r["rounds"][1]["start"] + 1) % 4)),
    (2, lambda r: r["rounds"][1].update(start=None)),
])
def test_inconsistent_deals_are_reported_with_their_round_and_no_ply(finished, number, change):
    change(finished)
    assert _where(finished) == (number, None)


def test_round_one_deal_is_checked_before_round_two(finished):
    finished["rounds"][0]["deck"].pop()
    finished["rounds"][1]["deck"].pop()
    assert _where(finished) == (1, None)


def test_a_round_two_entry_while_round_one_is_running_is_reported_as_round_two(finished):
    finished["rounds"][0]["moves"] = finished["rounds"][0]["moves"][:3]
    assert _where(finished) == (2, None)


def test_a_three_player_record_with_rank_one_cards_is_inconsistent():
    record = _record(n=3)
    record["rounds"][0]["hands"][0][0] = "R1"
    assert _where(record) == (1, None)


MOVE_FAULTS = [
    lambda m: m.update(seat=m["seat"] + 1 if m["seat"] < 3 else 0),
    lambda m: m.update(seat=float(m["seat"])),
    lambda m: m.update(seat=str(m["seat"])),
    lambda m: m.update(extra=True),
    lambda m: m.pop("move"),
    lambda m: m.pop("seat"),
    lambda m: m.update(move="resign"),
]


@pytest.mark.parametrize("fault", range(len(MOVE_FAULTS)))
def test_a_faulty_move_is_reported_at_its_ply(finished, fault):
    ply = 10
    MOVE_FAULTS[fault](finished["rounds"][0]["moves"][ply])
    assert _where(finished) == (1, ply)


def test_a_move_that_is_not_an_object_is_reported_at_its_ply(finished):
    finished["rounds"][1]["moves"][4] = ["seat", 0]
    assert _where(finished) == (2, 4)


def _first(record, kind):
    for number, rnd in enumerate(record["rounds"], 1):
        for ply, move in enumerate(rnd["moves"]):
            if move["move"] == kind:
                return number, ply, move
    raise LookupError(kind)


def test_reject_faults_duplicate_index_unknown_card_and_missing_pair(finished):
    number, ply, move = _first(finished, "reject")
    for pairs in ([[0, move["pairs"][0][1]], [0, move["pairs"][0][1]]], [[0, "Z9"]],
                  [[99, move["pairs"][0][1]]], [[0.0, move["pairs"][0][1]]], [], "x"):
        bad = copy.deepcopy(finished)
        bad["rounds"][number - 1]["moves"][ply]["pairs"] = pairs
        assert _where(bad) == (number, ply)


def test_a_card_not_in_hand_is_illegal(finished):
    number, ply, move = _first(finished, "challenge")
    bad = copy.deepcopy(finished)
    bad["rounds"][number - 1]["moves"][ply]["cards"] = ["RF", "RF", "RF"]  # only two exist
    assert _where(bad) == (number, ply)


def test_bet_faults_self_bet_float_value_and_bool_value(finished):
    number, ply, move = _first(finished, "bet")
    for change in ({"on": move["seat"]}, {"value": 1.0}, {"value": True}, {"value": 2},
                   {"on": -1}):
        bad = copy.deepcopy(finished)
        bad["rounds"][number - 1]["moves"][ply].update(change)
        assert _where(bad) == (number, ply)


def test_moves_after_the_round_is_over_are_illegal(finished):
    finished["rounds"][0]["moves"].append({"seat": 0, "move": "done"})
    assert _where(finished) == (1, len(finished["rounds"][0]["moves"]) - 1)


def test_an_unfinished_record_and_one_awaiting_round_two_replay_ok():
    running = _record(moves=60)
    out = _result(running)
    assert out["ok"] and not out["finished"] and out["round"] == 1
    record = _record(finish=True)
    record["rounds"].pop()
    out = _result(record)
    assert out["ok"] and (out["round"], out["stage"], out["waiting_on"]) == (1, "over", [])
    assert len(out["round_losers"]) == 1


def test_unknown_fields_on_record_and_round_are_ignored(finished):
    finished["meta"] = {"site": "x"}
    finished["note"] = 1
    finished["rounds"][0]["comment"] = "hi"
    assert _result(finished)["ok"] is True


def test_round_one_is_checked_whole_before_round_two_is_looked_at(finished):
    finished["rounds"][0]["deck"].pop()
    finished["rounds"][1] = 5
    assert _where(finished) == (1, None)
    finished["rounds"][0]["deck"][:] = _record(finish=True)["rounds"][0]["deck"]
    assert _where(finished) == (2, None)
