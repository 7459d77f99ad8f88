"""A Swiss pairing seats a player apart from one they blocked where the field allows."""

import pytest

from social.models import Block
from tests.tournaments.conftest import make_players, make_tournament, register_all
from tournaments.selectors import tournament_rounds
from tournaments.services import tournament_start

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("blocked", [False, True])
def test_swiss_round_one_seats_a_blocked_pair_apart(ann, eager_tasks, blocked):
    cup = make_tournament(ann)
    players = make_players("p", 8)
    register_all(cup, players)
    mates = _mates_in_plain_pairing(players) if blocked else None
    if blocked:
        Block.objects.create(blocker=players[0], blocked=mates)
    tournament_start(tournament_id=cup.pk, user=ann)
    (entry,) = tournament_rounds(cup)
    table = next(t for t in entry.tables if players[0].pk in [s.user_id for s in t.seat_list])
    if blocked:
        assert mates.pk not in [s.user_id for s in table.seat_list]
    assert sorted(len(t.seat_list) for t in entry.tables) == [4, 4]


def _mates_in_plain_pairing(players):
    """Someone the plain grouping seats with the first player."""
    from tournaments.seating import swiss_tables

    ids = [p.pk for p in players]
    table = next(t for t in swiss_tables(ids, set(), 4) if ids[0] in t)
    mate = next(p for p in table if p != ids[0])
    return next(p for p in players if p.pk == mate)


def test_a_block_that_cannot_be_avoided_still_lets_the_tournament_start(ann, eager_tasks):
    cup = make_tournament(ann)
    players = make_players("q", 4)
    register_all(cup, players)
    Block.objects.create(blocker=players[0], blocked=players[1])
    tournament_start(tournament_id=cup.pk, user=ann)
    (entry,) = tournament_rounds(cup)
    assert sorted(s.user_id for t in entry.tables for s in t.seat_list) == sorted(
        p.pk for p in players)
