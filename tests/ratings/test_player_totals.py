"""A profile's figures come from totals kept per player as games finish: they always equal
the player's GameStat rows summed, with resigned, abandoned, private and bot seats, whoever
looks, and after blaze_recompute."""

import random

import pytest
from django.core.management import call_command
from django.db.models import Avg, Count, Q, Sum

from accounts.models import User
from accounts.services import bots_create
from games import services
from games.models import Game, Seat
from games.tasks import bot_move
from ratings.models import GameStat, PlayerTotals
from ratings.services import game_finished_record
from ratings.stats import _shown_to, player_stats
from tests.games_helpers import random_legal_move

from .factories import finished_game

pytestmark = pytest.mark.django_db


def _aggregate(user, viewer) -> dict:
    """What the profile summed before totals were kept: one SQL aggregate over the rows."""
    rows = GameStat.objects.filter(_shown_to(viewer), user=user)
    aggregates = {
        "games": Count("id"), "won": Count("id", filter=Q(rank=1)), "average_score": Avg("score"),
        "feathers": Sum("feather_total"), "rounds": Sum("rounds"),
        "rounds_lost": Sum("rounds_lost"), "bets_placed": Sum("bets_placed"),
        "bets_on_loser": Sum("bets_on_loser"),
    }
    def summary(row):
        return (row.get("players"), row["games"], row["won"],
                None if row["average_score"] is None else round(row["average_score"], 9),
                row["feathers"] or 0, row["rounds_lost"] or 0, row["bets_placed"] or 0,
                row["bets_on_loser"] or 0,
                None if not row["rounds"] else round((row["feathers"] or 0) / row["rounds"], 9))
    by = rows.order_by().values("players").annotate(**aggregates).order_by("players")
    return {"total": summary(rows.aggregate(**aggregates)), "by": [summary(r) for r in by]}


def _from_totals(user, viewer) -> dict:
    stats = player_stats(user, viewer)
    def summary(row):
        return (row["players"], row["games"], row["won"],
                None if row["average_score"] is None else round(row["average_score"], 9),
                row["feathers"], row["rounds_lost"], row["bets_placed"], row["bets_on_loser"],
                None if row["feathers_per_round"] is None
                else round(row["feathers_per_round"], 9))
    return {"total": summary(stats["total"]), "by": [summary(r) for r in stats["by_players"]]}


def _assert_totals_match(users, viewers):
    for user in users:
        for viewer in viewers:
            assert _from_totals(user, viewer) == _aggregate(user, viewer), (user, viewer)


def _leave(game, user, reason):
    Seat.objects.filter(game=game, user=user).update(
        abandoned=True, abandoned_reason=reason, bot_level=Seat.TAKEOVER_BOT_LEVEL)


@pytest.fixture
def season(ann, bob, cat, dan, eve):
    """Games of 3, 4 and 5 seats: one bot level at two seats, leavers, private, unrated."""
    bots_create()
    tables = [
        [ann, bob, cat], [dan, eve, ann, "bot:basic"], [bob, cat, dan, eve, "bot:strong"],
        [eve, ann, "bot:basic", "bot:basic"], [cat, dan, ann, bob], [ann, eve, "bot:random"],
        [bob, dan, "bot:basic"],
    ]
    games = [finished_game(seats, seed=k, minutes=k, rated=k != 5)
             for k, seats in enumerate(tables)]
    _leave(games[1], ann, Seat.RESIGNED)
    _leave(games[4], dan, Seat.TIMEOUTS)
    _leave(games[4], bob, Seat.RESIGNED)
    Game.objects.filter(pk__in=[games[2].pk, games[6].pk]).update(private=True)
    for game in games:
        game_finished_record(game_id=game.pk)
    return games


def test_totals_equal_the_rows_summed_for_every_viewer(season, ann, bob, cat, dan, eve):
    from django.contrib.auth.models import AnonymousUser

    bots = list(User.objects.filter(is_bot=True))
    _assert_totals_match([ann, bob, cat, dan, eve, *bots], [None, AnonymousUser(), ann, bob,
                                                              dan, eve])


def test_a_game_recorded_twice_is_counted_once(season, ann):
    before = list(PlayerTotals.objects.order_by("pk").values())
    for game in season:
        game_finished_record(game_id=game.pk)
    assert list(PlayerTotals.objects.order_by("pk").values()) == before
    assert player_stats(ann, ann)["total"]["games"] == 5


def test_recompute_rebuilds_the_same_totals(season, ann, bob, dan):
    def stored():
        return sorted(PlayerTotals.objects.values_list(
            "user_id", "players", "private", "games", "won", "score", "feathers", "rounds",
            "rounds_lost", "bets_placed", "bets_on_loser"))

    before = stored()
    PlayerTotals.objects.filter(user=ann).update(games=99)
    call_command("blaze_recompute", "--batch", "2", stdout=open("/dev/null", "w"))
    assert stored() == before
    _assert_totals_match([ann, bob, dan], [None, ann, dan])


def _play_to_end(game, rng) -> Game:
    """People play random legal moves; a seat left to a bot moves by its queued task."""
    while True:
        game.refresh_from_db()
        if game.status != Game.PLAYING:
            return game
        seats = {s.index: s for s in game.seats.all()}
        people = [seats[i] for i in game.waiting_on
                  if seats[i].user is not None and not seats[i].abandoned]
        if not people:  # the bot that took a leaver's seat (its task, run here)
            bot_move(game.pk, game.seq)
            continue
        seat = people[0]
        services.move_play(game_id=game.pk, user=seat.user, seq=game.seq,
                           move=random_legal_move(game, seat.index, rng))


def test_games_finished_through_play_keep_the_totals(
        ann, bob, cat, dan, eager_tasks, django_capture_on_commit_callbacks):
    """The event path: a game ends, ratings record it after commit (its task), and the
    totals follow; with a resign the bot finishes the seat and the leaver ranks last."""
    bots_create()
    rng = random.Random(11)
    for k, users in enumerate([[ann, bob, cat], [bob, cat, dan, ann], [cat, ann, dan]]):
        with django_capture_on_commit_callbacks(execute=True):
            game = services.game_create(creator=users[0], players=len(users))
            for user in users[1:]:
                services.game_join(game_id=game.pk, user=user)
        if k == 1:
            with django_capture_on_commit_callbacks(execute=True):
                services.game_resign(game_id=game.pk, user=dan)
        with django_capture_on_commit_callbacks(execute=True):
            game = _play_to_end(game, rng)
        assert game.status == Game.FINISHED
        assert GameStat.objects.filter(game=game).count() == len(users)
    assert GameStat.objects.get(user=dan, players=4).rank == 4
    _assert_totals_match([ann, bob, cat, dan], [None, ann])


def test_the_migration_fills_the_totals_the_games_keep(season):
    """Migration 0007's backfill, run on the rows of a site that kept no totals, gives
    the totals that recording the games kept."""
    from importlib import import_module

    from django.apps import apps

    fill = import_module("ratings.migrations.0007_player_totals").fill
    kept = sorted(PlayerTotals.objects.values_list(
        "user_id", "players", "private", "games", "won", "score", "feathers", "rounds",
        "rounds_lost", "bets_placed", "bets_on_loser"))
    PlayerTotals.objects.all().delete()
    fill(apps, None)
    assert sorted(PlayerTotals.objects.values_list(
        "user_id", "players", "private", "games", "won", "score", "feathers", "rounds",
        "rounds_lost", "bets_placed", "bets_on_loser")) == kept
