"""Registering and withdrawing before the start: clear refusals that change nothing."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tournaments.models import Registration
from tournaments.services import TournamentError, tournament_register, tournament_withdraw

from .conftest import make_players, make_tournament


def test_a_player_registers_once(cup, bob):
    tournament_register(tournament_id=cup.pk, user=bob)
    with pytest.raises(TournamentError, match="already registered"):
        tournament_register(tournament_id=cup.pk, user=bob)
    assert Registration.objects.filter(tournament=cup).count() == 1


def test_registering_after_the_window_is_refused(ann, bob):
    now = timezone.now()
    late = make_tournament(
        ann, registration_opens=now - timedelta(days=2), registration_closes=now - timedelta(days=1)
    )
    with pytest.raises(TournamentError, match="Registration has closed"):
        tournament_register(tournament_id=late.pk, user=bob)
    assert not Registration.objects.exists()


def test_registering_before_the_window_opens_is_refused(ann, bob):
    now = timezone.now()
    early = make_tournament(
        ann, registration_opens=now + timedelta(days=1), registration_closes=now + timedelta(days=2)
    )
    with pytest.raises(TournamentError, match="not opened yet"):
        tournament_register(tournament_id=early.pk, user=bob)
    assert not Registration.objects.exists()


def test_registering_beyond_the_maximum_is_refused(ann, db):
    cup = make_tournament(ann, min_players=3, max_players=3)
    players = make_players("p", 4)
    for p in players[:3]:
        tournament_register(tournament_id=cup.pk, user=p)
    with pytest.raises(TournamentError, match="full"):
        tournament_register(tournament_id=cup.pk, user=players[3])
    assert Registration.objects.filter(tournament=cup).count() == 3


def test_withdrawing_before_the_start_frees_the_place(ann, db):
    cup = make_tournament(ann, min_players=3, max_players=3)
    a, b, c, d = make_players("p", 4)
    for p in (a, b, c):
        tournament_register(tournament_id=cup.pk, user=p)
    tournament_withdraw(tournament_id=cup.pk, user=b)
    tournament_register(tournament_id=cup.pk, user=d)
    assert set(Registration.objects.values_list("user__username", flat=True)) == {
        "p00", "p02", "p03"}


def test_withdrawing_without_registering_is_refused(cup, bob):
    with pytest.raises(TournamentError, match="not registered"):
        tournament_withdraw(tournament_id=cup.pk, user=bob)


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"name": " "}, "needs a name"),
        ({"table_size": 6}, "3, 4 or 5"),
        ({"min_players": 2}, "at least 3"),
        ({"min_players": 10, "max_players": 8}, "at least 3"),
        ({"points": {"4": [3, 2, 1]}}, "needs 4 whole numbers"),
        ({"time_control": {"kind": "blitz"}}, "time control"),
        ({"format": "knockout"}, "swiss or elimination"),
    ],
)
def test_bad_tournament_settings_are_refused(ann, fields, message):
    with pytest.raises(TournamentError, match=message):
        make_tournament(ann, **fields)
