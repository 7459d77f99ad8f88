"""Friends: whom you follow, who is at a table now, and their games being played."""

import pytest

from games import services
from games.live.presence import presence_touch
from tests.conftest import make_user
from tests.social.helpers import bearer, call, table

pytestmark = pytest.mark.django_db


def test_friends_say_who_is_at_a_table_now_and_which_games_they_play(client, ann, bob, cat,
                                                                     dan):
    token = bearer(ann)
    for name in ("bob", "cat"):
        assert call(client, "POST", f"/friends/{name}", token).status_code == 204
    assert call(client, "POST", "/friends/bob", token).status_code == 204  # twice: once
    game = table(bob, [dan, make_user("eve")])
    presence_touch(bob.pk, game.pk)
    friends = call(client, "GET", "/friends", token).json()["friends"]
    assert friends == [{"name": "bob", "online": True, "playing": [game.pk]},
                       {"name": "cat", "online": False, "playing": []}]
    assert call(client, "DELETE", "/friends/cat", token).status_code == 204
    assert [f["name"] for f in call(client, "GET", "/friends", token).json()["friends"]] == [
        "bob"]


def test_a_friends_private_game_is_not_listed(client, ann, bob, cat, dan):
    call(client, "POST", "/friends/bob", bearer(ann))
    game = services.game_create(creator=bob, players=3, private=True)
    for user in (cat, dan):
        services.game_join(game_id=game.pk, user=user, invite_code=game.invite_code)
    assert call(client, "GET", "/friends", bearer(ann)).json()["friends"][0]["playing"] == []


def test_the_friends_list_costs_the_same_queries_for_few_and_many(client, ann):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    token = bearer(ann)

    def count():
        call(client, "GET", "/friends", token)  # the token remembered (new rows forget it)
        with CaptureQueriesContext(connection) as ctx:
            assert call(client, "GET", "/friends", token).status_code == 200
        return len(ctx.captured_queries)

    def befriend(names):
        for name in names:
            friend = make_user(name)
            call(client, "POST", f"/friends/{name}", token)
            table(friend, [make_user(name + "x"), make_user(name + "y")])

    befriend(["f1"])
    few = count()
    befriend([f"g{i}" for i in range(6)])
    assert count() == few
