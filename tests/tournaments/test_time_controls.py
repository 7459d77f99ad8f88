"""A tournament's time control is checked where a game's is: one rule, one sentence."""

import pytest

from games.errors import Refused
from games.time_controls import PRESETS
from tournaments.models import Tournament
from tournaments.services import TournamentError

from .conftest import make_tournament

pytestmark = pytest.mark.django_db


def test_a_tournament_with_a_time_control_no_game_could_use_is_refused(ann):
    with pytest.raises(TournamentError, match='"minutes" must be a whole number from 1 to 180'):
        make_tournament(ann, time_control={"kind": "live", "minutes": 0})
    with pytest.raises(Refused, match='"days" per move must be one of 1, 2, 3, 5 or 7'):
        make_tournament(ann, time_control={"kind": "correspondence", "days": 4})
    assert not Tournament.objects.exists()


def test_a_tournament_without_a_time_control_gets_the_default_preset(ann):
    assert make_tournament(ann).time_control == PRESETS["live"]

