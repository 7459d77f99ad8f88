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


def _single_pass():
    """blaze_recompute as it was: wipe and apply every game in one transaction."""
    from django.db import transaction

    from games.models import Game
    from ratings.models import PlayerTotals

    with transaction.atomic():
        for model in (RatingChange, GameStat, PlayerTotals, Rating):
            model.objects.all().delete()
        for game_id in (Game.objects.filter(status=Game.FINISHED, imported=False)
                        .order_by("finished", "id").values_list("id", flat=True)):
            game_finished_record(game_id=game_id)


def test_recompute_in_batches_gives_what_one_pass_gave(people_and_games):
    from ratings.models import PlayerTotals

    def everything():
        totals = sorted(tuple(t.values()) for t in PlayerTotals.objects.values(
            "user_id", "players", "private", "games", "won", "score", "feathers", "rounds",
            "rounds_lost", "bets_placed", "bets_on_loser"))
        established = sorted(Rating.objects.values_list("user_id", "established",
                                                        "games_public", "games_3", "games_4",
                                                        "games_5", "opponents"))
        return _snapshot(), totals, established

    _single_pass()
    once = everything()
    assert once[0][1] and once[1]
    for batch in ("1", "3", "1000"):
        call_command("blaze_recompute", "--batch", batch, stdout=open("/dev/null", "w"))
        assert everything() == once


@pytest.fixture
def people_and_games(ann, bob, cat, dan, eve):
    import random

    from ops.seed import games_create

    bots_create()
    games_create(12, [u.pk for u in (ann, bob, cat, dan, eve)], random.Random(3))


def test_recompute_refuses_an_empty_batch():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        call_command("blaze_recompute", "--batch", "0", stdout=open("/dev/null", "w"))
