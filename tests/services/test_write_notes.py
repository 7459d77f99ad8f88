"""What one write's listeners leave for the views built later in it lives in the write's
notes (games.events), not on the model instance, and is gone when the write ends."""

import pytest

from games import events
from games.models import Game, Move, Seat


@pytest.mark.parametrize("model", [Game, Seat, Move])
def test_a_model_instance_carries_its_fields_and_nothing_else(model):
    fields = {f.attname for f in model._meta.concrete_fields}
    assert set(vars(model())) - {"_state"} == fields


def test_a_note_is_seen_inside_its_write_only():
    game = Game(pk=7)
    events.note(game, "rows", [1])  # no write under way: nothing kept
    assert events.noted(game, "rows") is None
    with events.write_scope():
        events.note(game, "rows", [1, 2])
        assert events.noted(game, "rows") == [1, 2]
        assert events.noted(Game(pk=8), "rows") is None
        events.unnote(game, "rows")
        assert events.noted(game, "rows") is None
        events.note(game, "rows", [3])
    assert events.noted(game, "rows") is None


def test_a_write_that_fails_leaves_no_note_behind():
    game = Game(pk=9)
    with pytest.raises(RuntimeError), events.write_scope():
        events.note(game, "rows", [1])
        raise RuntimeError("refused")
    with events.write_scope():
        assert events.noted(game, "rows") is None
