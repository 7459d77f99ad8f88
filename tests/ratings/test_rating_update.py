"""Rated games move ratings once; other games never do."""

import pytest

from accounts.services import bots_create
from games.models import Game
from ratings import rating as skill
from ratings.models import Rating, RatingChange
from ratings.services import rating_update_for_game
from ratings.tasks import rating_update

from .factories import finished_game

pytestmark = pytest.mark.django_db


def _rating(user):
    return Rating.objects.get(user=user)


def test_the_winner_gains_and_the_last_loses(ann, bob, cat):
    game = finished_game([ann, bob, cat], handmade_game=True)  # ranking: cat, bob, ann
    changes = rating_update_for_game(game_id=game.pk)
    assert {c.user_id: c.rank for c in changes} == {cat.pk: 1, bob.pk: 2, ann.pk: 3}
    assert _rating(cat).mu > skill.MU > _rating(ann).mu
    assert _rating(cat).displayed > _rating(ann).displayed
    assert all(_rating(u).games == 1 for u in (ann, bob, cat))


def test_applying_a_game_twice_applies_it_once(ann, bob, cat, dan):
    game = finished_game([ann, bob, cat, dan], seed=4)
    assert len(rating_update_for_game(game_id=game.pk)) == 4
    before = {r.user_id: (r.mu, r.sigma, r.games) for r in Rating.objects.all()}
    assert rating_update_for_game(game_id=game.pk) == []
    rating_update(game.pk)  # the Celery task, run in-process
    assert {r.user_id: (r.mu, r.sigma, r.games) for r in Rating.objects.all()} == before
    assert RatingChange.objects.filter(game=game).count() == 4


def test_the_next_game_starts_from_the_ratings_the_last_one_left(ann, bob, cat):
    first = finished_game([ann, bob, cat], handmade_game=True)
    second = finished_game([bob, cat, ann], handmade_game=True, minutes=5)  # ann wins
    rating_update_for_game(game_id=first.pk)
    rating_update_for_game(game_id=second.pk)
    change = RatingChange.objects.get(game=second, user=ann)
    first_change = RatingChange.objects.get(game=first, user=ann)
    assert (change.mu_before, change.sigma_before) == (first_change.mu_after,
                                                       first_change.sigma_after)
    assert change.mu_after > change.mu_before and _rating(ann).games == 2


@pytest.mark.parametrize("fields", [
    {"rated": False}, {"imported": True}, {"status": Game.ABORTED},
])
def test_unrated_imported_and_aborted_games_leave_ratings_alone(ann, bob, cat, fields):
    game = finished_game([ann, bob, cat], handmade_game=True, **fields)
    assert rating_update_for_game(game_id=game.pk) == []
    assert not Rating.objects.exists()


def test_a_bot_seat_without_a_user_rates_its_level_bot(ann, bob):
    bots_create()
    game = finished_game([ann, bob, "bot:strong"], handmade_game=True)  # the bot wins
    rating_update_for_game(game_id=game.pk)
    bot = Rating.objects.get(user__username="bot-strong")
    assert bot.user.is_bot and bot.mu > skill.MU and bot.games == 1


def test_two_seats_of_one_bot_play_at_its_anchor_and_count_one_game(ann):
    from ratings import rating as skill

    bots_create()
    game = finished_game(["bot:basic", ann, "bot:basic"], handmade_game=True)
    changes = rating_update_for_game(game_id=game.pk)
    assert [c.user_id for c in changes] == [ann.pk]
    bot = Rating.objects.get(user__username="bot-basic")
    assert bot.games == 1 and (bot.mu, bot.sigma) == skill.BOT_ANCHORS["basic"]
