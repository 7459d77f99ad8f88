"""Emails and notifications speak the recipient's language, not the language of whoever
caused them."""

import pytest
from django.utils import translation

from notifications.models import Notification
from tests.clocks.helpers import move_random, started_game, user_at
from tests.conftest import make_user

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def test_a_spanish_players_turn_email_is_in_spanish_after_an_english_players_move(
        mailoutbox, settings):
    settings.SITE_URL = "https://blaze.example"
    ann, cat = make_user("ann", language="en"), make_user("cat", language="en")
    lucia = make_user("lucia", language="es")
    with translation.override("en"):  # the English players' requests
        game = started_game([ann, lucia, cat])
        for _ in range(300):
            assert game.status == "playing", "the game ended before an English move woke Lucía"
            mover = user_at(game, game.waiting_on[0])
            before = len(_mails_to(mailoutbox, lucia))
            game = move_random(game, game.waiting_on[0])
            if mover != lucia and len(_mails_to(mailoutbox, lucia)) > before:
                break
        else:
            pytest.fail("no move of an English player gave Lucía her turn")
    mail = _mails_to(mailoutbox, lucia)[-1]
    assert mail.subject == f"[Blaze] Tu turno en la partida {game.pk}"
    assert mail.body.startswith("Hola, lucia:")
    assert "Abrir la partida: https://blaze.example/games/" in mail.body
    assert "Deja de recibir estos correos con un clic:" in mail.body
    note = Notification.objects.filter(user=lucia, kind="your_turn").latest("pk")
    assert note.text == f"Partida {game.pk}: es tu turno."
    # the English players got English
    english = [m for m in mailoutbox if m.to != [lucia.email]]
    assert all(m.subject.startswith("[Blaze] Your turn") for m in english)


def _mails_to(outbox, user):
    return [m for m in outbox if m.to == [user.email]]
