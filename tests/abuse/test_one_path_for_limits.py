"""One path for every limit: the quotas and rates live in the services, so every address
that makes a table, a tournament's tables, an import or a move meets them, page and API
alike. Every URL pattern of the site is listed below as limited or as making none of these:
a new one fails the first test until someone decides which it is and proves its limit."""

import random

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from games import services
from games.models import Game, Move
from tests.abuse.conftest import finished_record
from tests.games_helpers import api_post, bearer, random_legal_move

pytestmark = pytest.mark.django_db

# pattern -> what limits it
LIMITED = {
    "api/v1/games": "game_create rate, waiting tables and strong bots quotas",
    "play/new/": "game_create rate and quotas",
    "play/bots/": "game_create rate and quotas",
    "play/people/": "game_create rate and quotas (when it opens a table)",
    "games/<int:game_id>/again/": "game_create rate and quotas",
    "api/v1/games/<int:game_id>/bots": "strong bots quota",
    "games/<int:game_id>/bots/": "strong bots quota",
    "api/v1/games/import": "record_import rate",
    "games/import/": "record_import rate",
    "api/v1/games/<int:game_id>/moves": "move rate",
    "tournaments/new/": "tournament_create rate",
    "tournaments/<int:tournament_id>/start/": "a tournament starts once; tournament_create rate",
    # an accepted invitation starts its table through game_create: the sender's rate and quotas
    "api/v1/challenges/<int:challenge_id>/accept": "game_create rate and quotas (the sender's)",
    "friends/invitations/<int:challenge_id>/": "game_create rate and quotas (the sender's)",
}
NEITHER = {
    "api/v1/openapi.json", "api/v1/docs", "api/v1/me", "api/v1/", "api/v1/<path:path>",
    "api/v1/games/<int:game_id>", "api/v1/games/<int:game_id>/join",
    "api/v1/games/<int:game_id>/leave", "api/v1/games/<int:game_id>/log",
    "api/v1/games/<int:game_id>/resign", "api/v1/games/<int:game_id>/record",
    "api/v1/games/<int:game_id>/replay",
    # reads a review made by the bots' queue (its own limits: BLAZE_REVIEW_*)
    "api/v1/games/<int:game_id>/review",
    "", "play/", "games/", "games/<int:game_id>/", "games/<int:game_id>/join/",
    "games/<int:game_id>/leave/", "games/<int:game_id>/replay/", "games/<int:game_id>/invite/",
    "games/<int:game_id>/replay/data/", "games/<int:game_id>/log/", "rules/",
    "tournaments/", "tournaments/<int:tournament_id>/",
    "tournaments/<int:tournament_id>/register/", "tournaments/<int:tournament_id>/withdraw/",
    "jsi18n/", "i18n/language/", "account/settings/", "account/keep/", "account/tokens/",
    "account/tokens/<int:token_id>/revoke/", "u/<str:username>/", "leaderboard/",
    "notifications/", "notifications/resubscribe/", "notifications/unsubscribe/<str:token>/",
    "account/vacation/", "account/vacation/<int:vacation_id>/cancel/", "healthz",
    "staff/status/",
    # table talk, friends, blocks and invitations (social): no table or move of their own
    "api/v1/chat/phrases", "api/v1/chat/settings", "api/v1/games/<int:game_id>/chat",
    "api/v1/games/<int:game_id>/chat/free-text", "api/v1/games/<int:game_id>/mutes/<username>",
    "api/v1/friends", "api/v1/friends/<username>", "api/v1/blocks/<username>",
    "api/v1/reports", "api/v1/challenges", "api/v1/challenges/<int:challenge_id>",
    "api/v1/challenges/<int:challenge_id>/decline", "friends/", "friends/follow/",
    "friends/unfollow/", "friends/block/", "friends/unblock/", "friends/invite/",
    "friends/free-text/", "staff/reports/",
    # push, the installable app, the notice centre, next game and the calendar (notify)
    "api/v1/push/key", "api/v1/push/subscriptions", "sw.js", "offline/",
    "manifest.webmanifest", "notifications/<int:notification_id>/read/", "games/next/",
    "account/calendar/", "calendar/<str:secret>.ics",
    # what a player chose about notices, the unread count and marking read
    "api/v1/notices/settings", "api/v1/notices/unread", "api/v1/notices/read",
    "api/v1/notices/<int:notification_id>/read", "notifications/settings/",
}
# Third-party apps' own pages: sign-up and login (allauth's limits), the admin (staff).
THIRD_PARTY = ("account/", "admin/", "static/", "media/", "__")


def _patterns(resolver=None, prefix=""):
    for p in (resolver or get_resolver()).url_patterns:
        if isinstance(p, URLResolver):
            yield from _patterns(p, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            module = getattr(p.callback, "__module__", "") or ""
            if module.startswith(("allauth", "django.contrib.admin")):
                continue
            yield prefix + str(p.pattern)


def test_every_url_pattern_is_known_to_make_tables_or_moves_or_not():
    found = {p for p in _patterns() if not p.startswith(("admin/", "static/"))}
    unknown = found - set(LIMITED) - NEITHER
    assert not unknown, f"decide whether these make tables or moves, and limit them: {unknown}"
    assert set(LIMITED) <= found


@pytest.fixture
def one_table_an_hour(settings):
    settings.BLAZE_RATE_LIMITS = {**settings.BLAZE_RATE_LIMITS, "game_create": "1/h",
                                  "record_import": "1/d", "move": "1/m",
                                  "tournament_create": "1/d"}
    settings.BLAZE_MAX_WAITING_TABLES = 10


def _spend_the_hours_table(user):
    services.game_create(creator=user, players=3, bots=["random", "random"])


def _finished_table(ann, bob) -> Game:
    game = Game.objects.create(players=3, status=Game.FINISHED, created_by=ann)
    game.seats.create(index=0, user=ann)
    game.seats.create(index=1, user=bob)
    game.seats.create(index=2, bot_level="basic")
    return game


@pytest.mark.parametrize("name,fields", [
    ("game_create", {"players": "3"}),
    ("play_bots", {"players": "3", "level": "random"}),
    ("play_people", {"players": "3"}),
])
def test_each_page_that_opens_a_table_meets_the_hourly_rate(ann_client, ann, one_table_an_hour,
                                                            name, fields):
    _spend_the_hours_table(ann)
    answer = ann_client.post(reverse(name), fields)
    assert answer.status_code == 429 and int(answer["Retry-After"]) >= 1
    assert Game.objects.count() == 1


def test_the_api_and_play_again_meet_the_same_hourly_rate(client, ann, bob, one_table_an_hour):
    old = _finished_table(ann, bob)
    _spend_the_hours_table(ann)
    assert api_post(client, "/api/v1/games", {"players": 3}, bearer(ann)).status_code == 429
    client.force_login(ann)
    assert client.post(reverse("game_again", args=[old.pk])).status_code == 429
    assert Game.objects.count() == 2


def test_play_against_bots_meets_the_strong_bots_quota_for_guests_too(client, settings):
    settings.BLAZE_MAX_STRONG_BOT_SEATS = 4
    first = client.post(reverse("play_bots"), {"players": "5", "level": "strong"})
    assert first.status_code == 302
    again = client.post(reverse("play_bots"), {"players": "5", "level": "strong"})
    assert again.status_code == 429 and "strong bots" in again.content.decode()
    assert Game.objects.count() == 1


def test_adding_a_bot_meets_the_strong_bots_quota_on_the_page_and_the_api(client, ann,
                                                                          settings):
    settings.BLAZE_MAX_STRONG_BOT_SEATS = 2
    services.game_create(creator=ann, players=3, bots=["strong", "strong"])
    waiting = services.game_create(creator=ann, players=3)
    answer = api_post(client, f"/api/v1/games/{waiting.pk}/bots", {"level": "strong"},
                      bearer(ann))
    assert answer.status_code == 429
    client.force_login(ann)
    assert client.post(reverse("game_add_bot", args=[waiting.pk]),
                       {"level": "strong"}).status_code == 429
    assert not waiting.seats.filter(bot_level="strong").exists()


def test_imports_meet_one_daily_rate_on_the_page_and_the_api(client, ann, one_table_an_hour):
    import json

    record = json.dumps(finished_record())
    assert client.post("/api/v1/games/import", data=record, content_type="application/json",
                       **bearer(ann)).status_code == 201
    client.force_login(ann)
    assert client.post(reverse("record_import"), {"text": record}).status_code == 429
    assert Game.objects.count() == 1


def test_moves_meet_the_move_rate(client, ann, bob, cat, one_table_an_hour):
    game = services.game_create(creator=ann, players=3, quotas=False)
    for user in (bob, cat):
        services.game_join(game_id=game.pk, user=user)
    game = Game.objects.get(pk=game.pk)
    seat = game.waiting_on[0]
    mover = game.seats.get(index=seat).user
    first = api_post(client, f"/api/v1/games/{game.pk}/moves",
                     {"seq": 0, "move": random_legal_move(game, seat, random.Random(3))},
                     bearer(mover))
    assert first.status_code == 200
    game = Game.objects.get(pk=game.pk)
    answer = api_post(client, f"/api/v1/games/{game.pk}/moves",
                      {"seq": game.seq, "move": {"move": "pass"}}, bearer(mover))
    assert answer.status_code == 429 and int(answer["Retry-After"]) >= 1
    assert Move.objects.filter(game=game).count() == 1


def test_tournaments_meet_the_daily_rate_and_start_their_tables_once(ann_client, ann,
                                                                     one_table_an_hour):
    from tests.tournaments.conftest import make_players, register_all
    from tournaments.models import Tournament

    form = {"name": "Cup", "format": "swiss", "table_size": "4", "rounds": "1",
            "advance_per_table": "2", "time_control": "live",
            "registration_closes": "2099-01-01T12:00", "min_players": "3",
            "max_players": "20", "bot_level": "strong", "allow_bots": "on"}
    assert ann_client.post("/tournaments/new/", form).status_code == 302
    assert ann_client.post("/tournaments/new/", {**form, "name": "Cup 2"}).status_code == 429
    cup = Tournament.objects.get()
    register_all(cup, make_players("p", 3))
    start = f"/tournaments/{cup.pk}/start/"
    ann_client.post(start)
    tables = Game.objects.count()
    assert tables >= 1
    ann_client.post(start)
    assert Game.objects.count() == tables
