"""Table talk over the API: phrases in each reader's language, free text as plain text."""

import pytest

from social.models import ChatMessage
from tests.conftest import make_user
from tests.social.helpers import bearer, call, table

pytestmark = pytest.mark.django_db


@pytest.fixture
def three(ann, bob, cat):
    return table(ann, [bob, cat])


def test_the_phrasebook_speaks_the_requests_language(client, ann):
    token = bearer(ann)
    en = call(client, "GET", "/chat/phrases", token).json()
    ja = call(client, "GET", "/chat/phrases", token, HTTP_ACCEPT_LANGUAGE="ja").json()
    es = call(client, "GET", "/chat/phrases", token, HTTP_ACCEPT_LANGUAGE="es").json()
    assert [p["key"] for p in en] == [p["key"] for p in ja] == [p["key"] for p in es]
    keys = {p["key"] for p in en}
    assert {"good_luck", "well_played", "thanks", "oops", "one_moment", "good_game",
            "rematch"} <= keys
    assert dict((p["key"], p["text"]) for p in en)["good_luck"] == "Good luck!"
    assert dict((p["key"], p["text"]) for p in ja)["good_luck"] == "頑張って！"
    assert dict((p["key"], p["text"]) for p in es)["good_luck"] == "¡Buena suerte!"


def test_a_phrase_is_stored_once_and_read_back_in_each_readers_language(client, three, bob,
                                                                          cat):
    bob.language, cat.language = "ja", "es"
    bob.save()
    cat.save()
    ann = three.created_by
    r = call(client, "POST", f"/games/{three.pk}/chat", bearer(ann), {"phrase": "good_luck"})
    assert r.status_code == 201, r.content
    assert r.json()["phrase"] == "good_luck" and r.json()["text"] == "Good luck!"
    assert r.json()["from"] == "ann" and r.json()["seq"] == 1
    assert r.json()["seat"] == three.seats.get(user=ann).index
    by_bob = call(client, "GET", f"/games/{three.pk}/chat", bearer(bob)).json()["messages"]
    by_cat = call(client, "GET", f"/games/{three.pk}/chat", bearer(cat)).json()["messages"]
    assert [m["text"] for m in by_bob] == ["頑張って！"]
    assert [m["text"] for m in by_cat] == ["¡Buena suerte!"]
    assert ChatMessage.objects.count() == 1


def test_free_text_is_kept_as_plain_text_without_control_or_bidi_characters(client, three):
    ann = three.created_by
    said = "<b>hi</b>\u202e evil\x00 https://example.com\n bye"
    r = call(client, "POST", f"/games/{three.pk}/chat", bearer(ann), {"text": said})
    assert r.status_code == 201, r.content
    assert r.json()["text"] == "<b>hi</b> evil https://example.com bye"
    assert r.json()["phrase"] is None


@pytest.mark.parametrize("body,status,words", [
    ({"text": "x" * 281}, 400, "at most 280"),
    ({"text": "\u202e\x01  "}, 400, "empty"),
    ({"phrase": "insult"}, 400, "unknown phrase"),
    ({"phrase": "thanks", "text": "hi"}, 400, "either"),
    ({}, 400, "either"),
    ({"text": 5}, 400, "string"),
    ({"text": "hi", "colour": "red"}, 400, "colour"),
])
def test_bad_talk_is_refused_with_a_sentence_and_stores_nothing(client, three, body, status,
                                                                 words):
    r = call(client, "POST", f"/games/{three.pk}/chat", bearer(three.created_by), body)
    assert r.status_code == status and words in r.json()["error"]
    assert not ChatMessage.objects.exists()


def test_280_characters_are_allowed(client, three):
    r = call(client, "POST", f"/games/{three.pk}/chat", bearer(three.created_by),
             {"text": "é" * 280})
    assert r.status_code == 201


def test_talk_is_rate_limited_per_player_and_table(client, three, settings, bob):
    settings.SOCIAL_CHAT_RATE = (3, 3600)
    ann = bearer(three.created_by)
    for _ in range(3):
        assert call(client, "POST", f"/games/{three.pk}/chat", ann,
                    {"phrase": "oops"}).status_code == 201
    r = call(client, "POST", f"/games/{three.pk}/chat", ann, {"phrase": "oops"})
    assert r.status_code == 429 and "at most 3 messages" in r.json()["error"]
    # another player at the table, and the same player at another table, may still talk
    assert call(client, "POST", f"/games/{three.pk}/chat", bearer(bob),
                {"phrase": "oops"}).status_code == 201
    other = table(three.created_by, [make_user("dan"), make_user("eve")])
    assert call(client, "POST", f"/games/{other.pk}/chat", ann,
                {"phrase": "oops"}).status_code == 201


def test_a_player_who_turned_free_text_off_reads_phrases_only_and_cannot_write_text(
        client, three, bob):
    ann = bearer(three.created_by)
    call(client, "POST", f"/games/{three.pk}/chat", ann, {"text": "hello there"})
    call(client, "POST", f"/games/{three.pk}/chat", ann, {"phrase": "thanks"})
    b = bearer(bob)
    assert call(client, "PUT", "/chat/settings", b, {"free_text": False}).json() == {
        "free_text": False}
    seen = call(client, "GET", f"/games/{three.pk}/chat", b).json()["messages"]
    assert [m["phrase"] for m in seen] == ["thanks"]
    r = call(client, "POST", f"/games/{three.pk}/chat", b, {"text": "hi"})
    assert r.status_code == 403 and "free text off" in r.json()["error"]


def test_guests_read_phrases_only_until_they_turn_free_text_on(client, three):
    guest = make_user("guest1", is_guest=True)
    g = bearer(guest)
    call(client, "POST", f"/games/{three.pk}/chat", bearer(three.created_by), {"text": "hi"})
    assert call(client, "GET", f"/games/{three.pk}/chat", g).json()["messages"] == []
    assert call(client, "POST", f"/games/{three.pk}/chat", g,
                {"text": "yo"}).status_code == 403
    call(client, "PUT", "/chat/settings", g, {"free_text": True})
    # a spectator: the players' talk stays theirs while the game is on
    assert call(client, "GET", f"/games/{three.pk}/chat", g).json()["messages"] == []
    assert call(client, "POST", f"/games/{three.pk}/chat", g,
                {"text": "yo"}).status_code == 201


def test_players_and_spectators_read_their_own_channels_during_the_game(client, three, eve,
                                                                         bob):
    call(client, "POST", f"/games/{three.pk}/chat", bearer(three.created_by), {"text": "p"})
    call(client, "POST", f"/games/{three.pk}/chat", bearer(eve), {"text": "s"})
    assert [m["text"] for m in call(client, "GET", f"/games/{three.pk}/chat",
                                    bearer(bob)).json()["messages"]] == ["p"]
    assert [m["text"] for m in call(client, "GET", f"/games/{three.pk}/chat",
                                    bearer(eve)).json()["messages"]] == ["s"]
    assert ChatMessage.objects.get(text="s").seat is None


def test_the_players_may_turn_free_text_off_for_their_table(client, three, bob, eve):
    b = bearer(bob)
    r = call(client, "POST", f"/games/{three.pk}/chat/free-text", b, {"free_text": False})
    assert r.status_code == 200 and r.json() == {"free_text": False}
    r = call(client, "POST", f"/games/{three.pk}/chat", bearer(three.created_by),
             {"text": "hi"})
    assert r.status_code == 403 and "turned free text off" in r.json()["error"]
    assert call(client, "POST", f"/games/{three.pk}/chat", b,
                {"phrase": "thanks"}).status_code == 201
    r = call(client, "POST", f"/games/{three.pk}/chat/free-text", bearer(eve),
             {"free_text": True})
    assert r.status_code == 403


def test_a_private_table_talk_is_not_found_for_outsiders(client, ann, bob, eve):
    from games import services

    game = services.game_create(creator=ann, players=3, private=True)
    r = call(client, "POST", f"/games/{game.pk}/chat", bearer(eve), {"phrase": "thanks"})
    assert r.status_code == 404
    assert call(client, "GET", f"/games/{game.pk}/chat", bearer(eve)).status_code == 404


def test_the_history_costs_the_same_queries_for_few_and_many_messages(
        client, three, django_assert_max_num_queries):
    ann = three.created_by
    token = bearer(ann)
    call(client, "GET", "/chat/phrases", token)  # the token remembered

    def count():
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as ctx:
            assert call(client, "GET", f"/games/{three.pk}/chat", token).status_code == 200
        return len(ctx.captured_queries)

    ChatMessage.objects.bulk_create(
        ChatMessage(game=three, seq=i, sender=ann, channel="players", phrase="thanks")
        for i in range(1, 3))
    few = count()
    ChatMessage.objects.bulk_create(
        ChatMessage(game=three, seq=i, sender=ann, channel="players", text="t")
        for i in range(3, 150))
    assert count() == few


def test_saying_something_costs_the_same_queries_whoever_blocked_or_chose_otherwise(
        client, three, bob, django_capture_on_commit_callbacks):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.live.presence import presence_touch
    from social.models import Block
    from social.talk import free_text_set

    ann = three.created_by
    token = bearer(ann)

    def count():
        call(client, "GET", "/chat/phrases", token)  # the token remembered
        # the delivery after commit counts too (the blockers, the choices, the seats)
        with CaptureQueriesContext(connection) as ctx, \
                django_capture_on_commit_callbacks(execute=True) as delivered:
            assert call(client, "POST", f"/games/{three.pk}/chat", token,
                        {"text": "hi"}).status_code == 201
        assert len(delivered) == 1
        return len(ctx.captured_queries)

    call(client, "POST", f"/games/{three.pk}/chat", token, {"phrase": "hello"})  # its row

    def grow(prefix, n):
        for i in range(n):
            Block.objects.create(blocker=make_user(f"{prefix}b{i}"), blocked=ann)
            watcher = make_user(f"{prefix}w{i}")
            free_text_set(user=watcher, on=False)
            presence_touch(watcher.pk, three.pk)

    grow("a", 1)
    few = count()
    grow("b", 6)
    assert count() == few


def test_nul_and_lone_surrogates_never_reach_the_database(client, three):
    token = bearer(three.created_by)
    body = '{"text": "a\\u0000b\\ud800c"}'
    r = client.post(f"/api/v1/games/{three.pk}/chat", body, content_type="application/json",
                    HTTP_AUTHORIZATION=token)
    assert r.status_code == 201 and r.json()["text"] == "a bc"
    r = client.post("/api/v1/reports", '{"reason": "x\\ud800", "username": "bob"}',
                    content_type="application/json", HTTP_AUTHORIZATION=token)
    assert r.status_code == 400 and r.json()["error"]
    r = client.post("/api/v1/challenges", '{"invite": ["b\\ud800"], "players": 3, '
                    '"bots": ["basic"]}', content_type="application/json",
                    HTTP_AUTHORIZATION=token)
    assert r.status_code == 404
