"""Two friends start a tournament when bots fill the tables; without bots a table needs 3."""

import pytest
from django.db import IntegrityError, transaction

from games.models import Game
from tournaments.models import Tournament, TournamentTable
from tournaments.services import TournamentError, tournament_start

from .conftest import make_tournament, register_all

pytestmark = pytest.mark.django_db


def test_two_people_start_a_tournament_with_bots_filling_their_table(ann, bob):
    cup = make_tournament(ann, allow_bots=True, table_size=4)
    assert cup.min_players == 2  # the default when bots fill
    register_all(cup, [ann, bob])
    tournament_start(tournament_id=cup.pk, user=ann)
    table = TournamentTable.objects.get()
    game = Game.objects.get(pk=table.game_id)
    seats = list(game.seats.all())
    assert game.status == Game.PLAYING and len(seats) == 4
    assert {s.user_id for s in seats if s.user_id} == {ann.pk, bob.pk}
    assert sum(1 for s in seats if s.bot_level) == 2


def test_without_bots_two_people_are_too_few(ann, bob):
    cup = make_tournament(ann)
    assert cup.min_players == 3
    register_all(cup, [ann, bob])
    with pytest.raises(TournamentError, match="Too few players"):
        tournament_start(tournament_id=cup.pk, user=ann)
    with pytest.raises(TournamentError, match="2 when bots fill"):
        make_tournament(ann, min_players=2)
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.filter(pk=cup.pk).update(min_players=2)


def test_the_form_leaves_the_minimum_to_the_bots_choice(ann_client, ann):
    reply = ann_client.post("/tournaments/new/", {
        "name": "Two of us", "format": "swiss", "table_size": "3", "rounds": "2",
        "advance_per_table": "2", "time_control": "live",
        "registration_closes": "2099-01-01T12:00", "min_players": "", "max_players": "20",
        "bot_level": "basic", "allow_bots": "on",
    })
    assert reply.status_code == 302, reply.content.decode()[-2000:]
    assert Tournament.objects.get(name="Two of us").min_players == 2
