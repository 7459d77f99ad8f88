"""Tournament news goes through the one notification path: an in-site copy for every
player, mail only as the player chose, the one-click unsubscribe headers, and a name with
a newline in it cannot stop the mail."""

import pytest
from django.core import mail

from games.models import Game
from notifications.models import EmailOptOut, Notification
from tournaments.services import tournament_start

from .conftest import make_players, make_tournament, register_all

pytestmark = pytest.mark.django_db


def test_round_mail_reaches_players_as_they_chose_whatever_the_name(
        ann, settings, django_capture_on_commit_callbacks):
    settings.SITE_URL = "https://blaze.example"
    cup = make_tournament(ann, name="Autumn\r\nCup")
    players = make_players("p", 4)
    register_all(cup, players)
    EmailOptOut.objects.create(user=players[3])
    with django_capture_on_commit_callbacks(execute=True):
        tournament_start(tournament_id=cup.pk, user=ann)
    game = Game.objects.get()

    notes = Notification.objects.filter(kind=Notification.TOURNAMENT)
    assert sorted(n.user_id for n in notes) == sorted(p.pk for p in players)  # in the site
    assert all(n.game_id == game.pk and "Round 1 of Autumn" in n.text for n in notes)
    assert sorted(m.to[0] for m in mail.outbox) == sorted(p.email for p in players[:3])
    for message in mail.outbox:
        assert message.subject == "[Blaze] Autumn Cup: your table for round 1 is ready"
        assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert message.extra_headers["List-Unsubscribe"].startswith(
            "<https://blaze.example/notifications/unsubscribe/")
        assert f"https://blaze.example/games/{game.pk}/" in message.body
        assert f"https://blaze.example/tournaments/{cup.pk}/" in message.body
        message.message()  # the headers are valid: nothing raises BadHeaderError

