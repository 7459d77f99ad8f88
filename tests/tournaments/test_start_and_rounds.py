"""Starting, pairing, withdrawing mid-round, advancing (idempotently) and mail."""

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games.models import Game, Seat
from tournaments import services
from tournaments.models import Registration, Tournament, TournamentRound
from tournaments.selectors import tournament_rounds
from tournaments.services import (
    TournamentError,
    tournament_advance,
    tournament_start,
    tournament_withdraw,
)

from .conftest import make_players, make_tournament, register_all


def test_too_few_players_cannot_start(ann, db):
    cup = make_tournament(ann, min_players=4)
    register_all(cup, make_players("p", 3))
    with pytest.raises(TournamentError, match="Too few players to start: 3 registered, at least 4"):
        tournament_start(tournament_id=cup.pk, user=ann)
    cup.refresh_from_db()
    assert cup.status == Tournament.REGISTERING and not TournamentRound.objects.exists()


def test_only_the_organiser_starts_it(ann, bob, db):
    cup = make_tournament(ann)
    register_all(cup, make_players("p", 4))
    with pytest.raises(TournamentError, match="Only the organiser"):
        tournament_start(tournament_id=cup.pk, user=bob)
    tournament_start(tournament_id=cup.pk, user=ann)
    with pytest.raises(TournamentError, match="already started"):
        tournament_start(tournament_id=cup.pk, user=ann)
    assert TournamentRound.objects.count() == 1


def test_round_one_seats_everyone_in_started_games_and_mails_them(
    ann, db, settings, django_capture_on_commit_callbacks
):
    settings.SITE_URL = "https://blaze.example"
    cup = make_tournament(ann)
    players = make_players("p", 7)
    register_all(cup, players)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_start(tournament_id=cup.pk, user=ann)
    (entry,) = tournament_rounds(cup)
    assert [len(t.seat_list) for t in entry.tables] == [4, 3]
    assert all(t.game.status == Game.PLAYING for t in entry.tables)
    assert sorted(s.user_id for t in entry.tables for s in t.seat_list) == [p.pk for p in players]
    assert not Seat.objects.filter(bot_level__isnull=False).exists()
    assert len(mail.outbox) == 7
    first = next(t for t in entry.tables if players[0].pk in [s.user_id for s in t.seat_list])
    message = next(m for m in mail.outbox if m.to == [players[0].email])
    assert f"https://blaze.example/games/{first.game.pk}/" in message.body


def test_bots_fill_a_short_table_when_allowed(ann, db):
    cup = make_tournament(ann, allow_bots=True, bot_level="strong")
    register_all(cup, make_players("p", 6))
    tournament_start(tournament_id=cup.pk, user=ann)
    (entry,) = tournament_rounds(cup)
    assert [len(t.seat_list) for t in entry.tables] == [4, 4]
    bots = Seat.objects.filter(user__isnull=True)
    assert bots.count() == 2 and set(bots.values_list("bot_level", flat=True)) == {"strong"}
    assert not any(t.game.rated for t in entry.tables)


def test_withdrawing_mid_round_hands_the_seat_to_a_bot(ann, db, django_capture_on_commit_callbacks):
    cup = make_tournament(ann)
    a, b, c, d = make_players("p", 4)
    register_all(cup, [a, b, c, d])
    tournament_start(tournament_id=cup.pk, user=ann)
    game = Game.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        tournament_withdraw(tournament_id=cup.pk, user=b)
    seat = Seat.objects.get(game=game, user=b)
    assert seat.bot_level == "basic"
    assert seat.abandoned and seat.abandoned_reason == Seat.RESIGNED  # b ranks last there
    assert Registration.objects.get(user=b).withdrawn is not None
    game.refresh_from_db()
    if seat.index in game.waiting_on or game.status == Game.FINISHED:
        # The bot was woken at once and played the seat's turns.
        assert game.seq > 0
    assert Seat.objects.filter(game=game, bot_level__isnull=True).count() == 3
    with pytest.raises(TournamentError, match="not registered"):
        tournament_withdraw(tournament_id=cup.pk, user=b)


def finish_games_randomly(tournament):
    """Every unfinished game of the tournament played to its end by random bots."""
    from games.tasks import bot_move

    games = Game.objects.filter(
        tournament_table__round__tournament=tournament, status=Game.PLAYING
    )
    for game in games:
        Seat.objects.filter(game=game).update(bot_level="random")
        for _ in range(100):
            game.refresh_from_db()
            if game.status != Game.PLAYING:
                break
            bot_move(game.pk, game.seq)
        assert game.status == Game.FINISHED


def test_advance_waits_for_every_table_then_pairs_the_next_round_once(ann, db, random_bots):
    cup = make_tournament(ann, rounds=2)
    register_all(cup, make_players("p", 8))
    tournament_start(tournament_id=cup.pk, user=ann)
    assert tournament_advance(tournament_id=cup.pk) == "waiting"
    finish_games_randomly(cup)
    assert tournament_advance(tournament_id=cup.pk) == "paired"
    assert tournament_advance(tournament_id=cup.pk) == "waiting"
    cup.refresh_from_db()
    assert cup.current_round == 2 and TournamentRound.objects.count() == 2
    finish_games_randomly(cup)
    assert tournament_advance(tournament_id=cup.pk) == "finished"
    assert tournament_advance(tournament_id=cup.pk) == "not running"
    assert TournamentRound.objects.count() == 2


def test_a_second_worker_cannot_claim_a_round_already_claimed(ann, db, random_bots):
    cup = make_tournament(ann, rounds=3)
    register_all(cup, make_players("p", 4))
    tournament_start(tournament_id=cup.pk, user=ann)
    finish_games_randomly(cup)
    assert tournament_advance(tournament_id=cup.pk) == "paired"
    # A worker that saw round 1 finished, a moment late: its claim finds nothing to update.
    assert not services._round_claim(tournament_id=cup.pk, seen_round=1, current_round=2)
    cup.refresh_from_db()
    assert cup.current_round == 2 and TournamentRound.objects.count() == 2


def test_the_tick_cancels_a_due_tournament_that_is_short_of_players(ann, db):
    now = timezone.now()
    cup = make_tournament(ann, min_players=5, starts_at=now + timedelta(hours=2))
    register_all(cup, make_players("p", 4))
    assert services.tournaments_tick(now=now)["started"] == []
    done = services.tournaments_tick(now=now + timedelta(hours=3))
    assert done["cancelled"] == [cup.pk]
    cup.refresh_from_db()
    assert cup.status == Tournament.CANCELLED


def test_the_game_finished_hook_ignores_other_games(ann, db, django_capture_on_commit_callbacks):
    from games.services import game_create

    game = game_create(creator=ann, players=3, bots=["random", "random"])
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.tournament_game_finished(game_id=game.pk)
    assert callbacks == []
