"""blaze_replay reads JSON as JSON reads: integers of any length, blank lines of JSON's
white space only."""

import io
import json

from games.engine import replay_line
from games.engine.cli import replay_stream
from games.engine.record import LongInt, loads_json

from .test_examples import _pairs

LONG = "7" * 5001  # past Python's 4,300-digit conversion limit


def _finished() -> dict:
    return json.loads(next(r for r, e in _pairs() if e["ok"] and e["finished"]))


def test_a_record_with_a_very_long_integer_in_meta_replays():
    record = _finished()
    expected = replay_line(json.dumps(record))
    text = json.dumps(record)[:-1] + f', "meta": {{"x": {LONG}}}}}'
    assert replay_line(text) == expected


def test_a_very_long_integer_as_a_seat_is_an_illegal_move_where_it_stands():
    record = _finished()
    record["rounds"][0]["moves"][2]["seat"] = "SEAT"
    text = json.dumps(record)
    too_big = replay_line(text.replace('"SEAT"', "99"))  # a seat that is no seat
    long = replay_line(text.replace('"SEAT"', LONG))
    assert too_big["ok"] is False and too_big["round"] == 1 and too_big["ply"] is not None
    assert (long["ok"], long["round"], long["ply"]) == (False, 1, too_big["ply"])


def test_a_long_integer_is_read_as_such_and_never_as_an_int():
    value = loads_json(f'[{LONG}, -{LONG}, 12]')
    assert isinstance(value[0], LongInt) and value[0].digits == LONG
    assert isinstance(value[1], LongInt) and value[2] == 12


def test_only_lines_of_json_white_space_are_blank():
    record = json.dumps(_finished())
    out = io.StringIO()
    count = replay_stream([" \t\r\n", "\n", record + "\n", "\x0c\n", "\u00a0\n"], out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert count == 3 and lines[0]["ok"]
    assert [line["ok"] for line in lines[1:]] == [False, False]
    assert all(line["error"].startswith("not valid JSON") for line in lines[1:])
