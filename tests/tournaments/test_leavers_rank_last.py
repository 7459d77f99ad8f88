"""In a tournament a player who left their game (resigned, or timed out three times in a
row) takes the last place's points, whatever the bot that took the seat scored."""

import pytest
from django.urls import reverse

from games.models import Game, Seat
from tournaments.selectors import tournament_standings
from tournaments.services import tournament_start

from .conftest import make_players, make_tournament, register_all

pytestmark = pytest.mark.django_db


def test_the_table_winner_who_resigned_scores_the_last_place_points(client, ann):
    cup = make_tournament(ann, rounds=1)
    players = make_players("p", 4)
    register_all(cup, players)
    tournament_start(tournament_id=cup.pk, user=ann)
    game = Game.objects.get()
    seats = {s.index: s.user for s in game.seats.all()}
    # As the game ends: seat 2's bot won the game for a player who had resigned.
    Game.objects.filter(pk=game.pk).update(
        status=Game.FINISHED, result={"ranking": [2, 0, 3, 1], "scores": [7, 2, 9, 4],
                                      "round_losers": [1, 1]})
    Seat.objects.filter(game=game, index=2).update(
        abandoned=True, abandoned_reason=Seat.RESIGNED, bot_level=Seat.TAKEOVER_BOT_LEVEL)

    rows = {r.user.username: (r.rank, r.points) for r in tournament_standings(cup)}
    assert rows == {seats[0].username: (1, 3), seats[3].username: (2, 2),
                    seats[1].username: (3, 1), seats[2].username: (4, 0)}
    page = client.get(reverse("tournament_detail", args=[cup.pk])).content.decode()
    standings = page[page.index('id="standings"'):]
    order = [standings.index(f">{seats[i].username}") for i in (0, 3, 1, 2)]
    assert order == sorted(order)
