"""blaze_recompute rebuilds every derived row from the games, to the same numbers."""

import pytest
from django.core.management import call_command

from accounts.services import bots_create
from ratings.models import GameStat, Rating, RatingChange
from ratings.services import game_finished_record

from .factories import finished_game

pytestmark = pytest.mark.django_db


def _snapshot():
    ratings = sorted((r.user_id, r.mu, r.sigma, r.games) for r in Rating.objects.all())
    changes = sorted(
        (c.game_id, c.user_id, c.mu_before, c.sigma_before, c.mu_after, c.sigma_after, c.rank)
        for c in RatingChange.objects.all()
    )
    stats = sorted(
        (s.game_id, s.seat, s.user_id, s.players, s.rank, s.score, str(s.feathers),
         s.rounds_lost, s.bets_on_loser, s.bets_placed)
        for s in GameStat.objects.all()
    )
    return ratings, changes, stats


def test_recompute_reproduces_the_stored_figures(ann, bob, cat, dan, eve):
    bots_create()
    tables = [
        [ann, bob, cat], [dan, eve, ann, "bot:basic"], [bob, cat, dan, eve, "bot:strong"],
        [eve, ann, bob], [cat, dan, ann, bob], [ann, eve, "bot:basic"],
    ]
    games = [finished_game(seats, seed=k, minutes=k, rated=k != 3)
             for k, seats in enumerate(tables)]
    for game in games:  # as the Celery task does when each game finishes
        game_finished_record(game_id=game.pk)
    before = _snapshot()
    # the unrated game moves no rating, nor any game a bot's anchor
    assert len(before[1]) == 3 + 3 + 4 + 4 + 2
    assert len(before[2]) == sum(len(t) for t in tables)

    RatingChange.objects.filter(game=games[0]).delete()
    Rating.objects.filter(user=ann).update(mu=99.0)
    call_command("blaze_recompute", stdout=open("/dev/null", "w"))
    assert _snapshot() == before
