"""Blocking keeps a player away: from your waiting tables, your invitations, your
followers and your ears. Table mutes and reports for staff."""

import pytest

from games import services
from games.models import Game
from social.models import Block, ChatMessage, Follow, Report
from tests.conftest import make_user
from tests.social.helpers import bearer, call, table

pytestmark = pytest.mark.django_db


def test_the_blocked_cannot_join_your_waiting_table_and_nothing_changes(client, ann, bob):
    assert call(client, "POST", "/blocks/bob", bearer(ann)).status_code == 204
    game = services.game_create(creator=ann, players=3)
    r = call(client, "POST", f"/games/{game.pk}/join", bearer(bob))
    assert r.status_code == 403 and "blocked you" in r.json()["error"]
    assert list(game.seats.values_list("user__username", flat=True)) == ["ann"]


def test_others_still_join_and_unblocking_lets_the_blocked_in(client, ann, bob, cat):
    call(client, "POST", "/blocks/bob", bearer(ann))
    game = services.game_create(creator=ann, players=3)
    assert call(client, "POST", f"/games/{game.pk}/join", bearer(cat)).status_code == 200
    assert call(client, "DELETE", "/blocks/bob", bearer(ann)).status_code == 204
    assert call(client, "POST", f"/games/{game.pk}/join", bearer(bob)).status_code == 200
    assert Game.objects.get(pk=game.pk).status == Game.PLAYING


def test_quick_play_seats_the_blocked_at_another_table(ann, bob, cat):
    Block.objects.create(blocker=ann, blocked=bob)
    mine = services.game_create(creator=ann, players=3)
    other = services.game_create(creator=cat, players=3)
    assert services.game_seat_with_people(user=bob, players=3).pk == other.pk
    assert not mine.seats.filter(user=bob).exists()


def test_the_blocked_cannot_invite_you_nor_follow_you(client, ann, bob):
    call(client, "POST", "/friends/ann", bearer(bob))
    call(client, "POST", "/blocks/bob", bearer(ann))
    assert not Follow.objects.filter(follower=bob, followed=ann).exists()  # ended by the block
    r = call(client, "POST", "/friends/ann", bearer(bob))
    assert r.status_code == 403 and "followers" in r.json()["error"]
    r = call(client, "POST", "/challenges", bearer(bob),
             {"invite": ["ann"], "players": 3, "bots": ["basic"]})
    assert r.status_code == 403 and "does not accept invitations" in r.json()["error"]
    assert not Follow.objects.exists()


@pytest.mark.parametrize("path", ["/blocks/nobody", "/friends/nobody"])
def test_an_unknown_player_is_not_found(client, ann, path):
    r = call(client, "POST", path, bearer(ann))
    assert r.status_code == 404 and "nobody" in r.json()["error"]


def test_blocking_oneself_is_refused(client, ann):
    r = call(client, "POST", "/blocks/ann", bearer(ann))
    assert r.status_code == 400 and not Block.objects.exists()


def test_a_blocked_players_talk_is_hidden_from_the_blockers_history(client, ann, bob, cat):
    game = table(ann, [bob, cat])
    call(client, "POST", f"/games/{game.pk}/chat", bearer(bob), {"phrase": "thanks"})
    call(client, "POST", f"/games/{game.pk}/chat", bearer(cat), {"phrase": "oops"})
    call(client, "POST", "/blocks/bob", bearer(ann))
    seen = call(client, "GET", f"/games/{game.pk}/chat", bearer(ann)).json()["messages"]
    assert [m["from"] for m in seen] == ["cat"]


def test_a_mute_at_one_table_hides_talk_there_only(client, ann, bob, cat):
    one = table(ann, [bob, cat])
    two = table(ann, [bob, make_user("dan")])
    for game in (one, two):
        call(client, "POST", f"/games/{game.pk}/chat", bearer(bob), {"phrase": "thanks"})
    r = call(client, "POST", f"/games/{one.pk}/mutes/bob", bearer(ann), {"muted": True})
    assert r.status_code == 200
    assert call(client, "GET", f"/games/{one.pk}/chat", bearer(ann)).json()["messages"] == []
    assert len(call(client, "GET", f"/games/{two.pk}/chat",
                    bearer(ann)).json()["messages"]) == 1
    call(client, "POST", f"/games/{one.pk}/mutes/bob", bearer(ann), {"muted": False})
    assert len(call(client, "GET", f"/games/{one.pk}/chat",
                    bearer(ann)).json()["messages"]) == 1


def test_a_message_reported_by_two_players_is_hidden_until_staff_review_it(client, ann, bob,
                                                                           cat, eve):
    game = table(ann, [bob, cat])
    call(client, "POST", f"/games/{game.pk}/chat", bearer(ann), {"text": "rude words"})
    body = {"reason": "insults", "game": game.pk, "seq": 1}
    assert call(client, "POST", "/reports", bearer(bob), body).status_code == 201
    assert call(client, "POST", "/reports", bearer(bob), body).status_code == 201  # once
    assert len(call(client, "GET", f"/games/{game.pk}/chat",
                    bearer(cat)).json()["messages"]) == 1
    assert call(client, "POST", "/reports", bearer(cat), body).status_code == 201
    assert call(client, "GET", f"/games/{game.pk}/chat", bearer(cat)).json()["messages"] == []
    assert Report.objects.filter(message__seq=1).count() == 2
    assert ChatMessage.objects.get(seq=1).hidden


@pytest.mark.parametrize("body,status,words", [
    ({"reason": "x", "username": "ann"}, 400, "yourself"),
    ({"reason": "x", "username": "nobody"}, 404, "nobody"),
    ({"reason": "x", "game": 999, "seq": 1}, 404, "no such message"),
    ({"reason": "x"}, 400, "name the player"),
    ({"reason": "  ", "username": "bob"}, 400, "reason"),
])
def test_a_bad_report_is_refused_and_nothing_is_kept(client, ann, bob, body, status, words):
    r = call(client, "POST", "/reports", bearer(ann), body)
    assert r.status_code == status and words in r.json()["error"]
    assert not Report.objects.exists()


def test_the_blocked_cannot_join_the_next_game_of_your_table(ann, bob, cat):
    from games.errors import Forbidden

    game = table(ann, [bob, cat])
    Game.objects.filter(pk=game.pk).update(status=Game.FINISHED)
    services.game_again(game_id=game.pk, user=ann)
    Block.objects.create(blocker=ann, blocked=bob)
    with pytest.raises(Forbidden, match="blocked you"):
        services.game_again(game_id=game.pk, user=bob)
    assert services.game_again(game_id=game.pk, user=cat).seats.filter(user=cat).exists()


def test_a_report_with_a_broken_character_is_refused_by_the_service(ann, bob):
    from social.refusals import SocialError
    from social.reports import report_create

    with pytest.raises(SocialError, match="broken character"):
        report_create(user=ann, reason="x\ud800", username="bob")
    assert not Report.objects.exists()
