"""A whole Swiss event, 13 players and 3 rounds, every seat driven by the bot task, run
through the real tasks (Celery eager; the transactions really commit)."""

import pytest
from django.core import mail

from games.models import Game
from tournaments import tasks
from tournaments.models import Tournament, TournamentTable
from tournaments.selectors import tournament_rounds, tournament_standings

from .conftest import make_players, make_tournament, register_all


@pytest.mark.django_db(transaction=True)
def test_thirteen_bots_play_a_three_round_swiss_event_to_the_end(ann, random_bots):
    bots = make_players("robo", 13, is_bot=True)
    cup = make_tournament(ann, rounds=3, table_size=4, bot_level="random")
    register_all(cup, bots)
    Tournament.objects.filter(pk=cup.pk).update(starts_at=cup.registration_closes)

    # Not due yet: the tick leaves it alone.
    assert tasks.tournaments_tick()["started"] == []
    Tournament.objects.filter(pk=cup.pk).update(registration_closes=cup.registration_opens)
    Tournament.objects.filter(pk=cup.pk).update(starts_at=cup.registration_opens)

    for _ in range(10):  # a tick per round, and one more to finish
        tasks.tournaments_tick()
        cup.refresh_from_db()
        if cup.status == Tournament.FINISHED:
            break
    assert cup.status == Tournament.FINISHED and cup.current_round == 3

    rounds = tournament_rounds(cup)
    assert [len(r.tables) for r in rounds] == [3, 3, 3]
    for r in rounds:
        assert sorted(len(t.seat_list) for t in r.tables) == [4, 4, 5]
        seated = [s.user_id for t in r.tables for s in t.seat_list]
        assert sorted(seated) == sorted(b.pk for b in bots)  # everyone plays every round
    assert not Game.objects.exclude(status=Game.FINISHED).exists()
    assert TournamentTable.objects.count() == 9

    rows = tournament_standings(cup)
    assert [r.rank for r in rows] == list(range(1, 14))
    assert all(r.played == 3 for r in rows)
    # 3 tables a round hand out 4+3+2+1+0 + 2*(3+2+1+0) = 22 points.
    assert sum(r.points for r in rows) == 3 * 22
    keys = [(-r.points, -r.score, -r.opponents_points) for r in rows]
    assert keys == sorted(keys)

    assert mail.outbox == []  # bots get no mail
    assert tasks.tournament_advance(cup.pk) == "not running"  # idempotent once finished
