import json
import random
import re

import pytest
from django.urls import reverse

from games import services
from games.models import Game
from games.selectors import game_state
from tests.games_helpers import api_get, assert_view_hides_cards, random_legal_move

pytestmark = pytest.mark.django_db


def _view_in_page(html: str) -> dict:
    match = re.search(r'<script id="game-view" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(match.group(1))


def _play_to_end(game, rng):
    while True:
        game.refresh_from_db()
        if game.status != Game.PLAYING:
            return game
        seat = game.waiting_on[0]
        user = game.seats.get(index=seat).user
        services.move_play(game_id=game.pk, user=user, seq=game.seq,
                           move=random_legal_move(game, seat, rng))


def test_creating_a_table_with_bots_from_the_lobby(ann_client, ann):
    response = ann_client.post(reverse("game_create"), {
        "players": "3", "bots": ["basic", ""], "time_control": "correspondence",
    })
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert game.time_control["kind"] == "correspondence"
    assert list(game.seats.values_list("bot_level", flat=True)) == [None, "basic"]


def test_the_lobby_lists_open_tables_and_a_join_button(client, ann, bob):
    services.game_create(creator=ann, players=3)
    client.force_login(bob)
    page = client.get("/play/").content.decode()
    assert "Create table" in page and "Join table" in page


def test_the_table_page_shows_only_what_the_seat_may_see(client, ann, bob, cat):
    game = services.game_create(creator=ann, players=3)
    for user in (bob, cat):
        services.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    rng = random.Random(4)
    for _ in range(25):
        state = game_state(game)
        for seat in game.seats.select_related("user"):
            client.force_login(seat.user)
            html = client.get(f"/games/{game.pk}/").content.decode()
            assert_view_hides_cards(_view_in_page(html), state, seat.index)
            outside = re.sub(r'<script id="game-view".*?</script>', "", html, flags=re.S)
            assert not re.findall(r"(?<![A-Za-z0-9])[RYB][1-9F](?![A-Za-z0-9])", outside)
        seat = game.waiting_on[0]
        services.move_play(game_id=game.pk, user=game.seats.get(index=seat).user, seq=game.seq,
                           move=random_legal_move(game, seat, rng))
        game.refresh_from_db()


def test_the_table_page_has_the_hooks_the_script_needs(ann_client, ann):
    game = services.game_create(creator=ann, players=3)
    page = ann_client.get(f"/games/{game.pk}/").content.decode()
    for hook in ('id="prompt"', 'id="status"', 'id="hand"', 'id="ranking"', "js/table/table.js",
                 'data-csrf="', "Add a bot"):
        assert hook in page, hook


def test_my_games_lists_games_waiting_on_me_first(client, ann, bob, cat):
    waiting = services.game_create(creator=ann, players=3)
    playing = services.game_create(creator=ann, players=3)
    for user in (bob, cat):
        services.game_join(game_id=playing.pk, user=user)
    playing.refresh_from_db()
    mover = playing.seats.get(index=playing.waiting_on[0]).user
    client.force_login(mover)
    page = client.get("/games/").content.decode()
    assert "your move" in page
    if mover == ann:
        assert page.index(f"Table {playing.pk}<") < page.index(f"Table {waiting.pk}<")


def test_a_finished_game_replays_and_its_record_imports_as_an_analysis_copy(
        client, ann, bob, cat):
    game = services.game_create(creator=ann, players=3)
    for user in (bob, cat):
        services.game_join(game_id=game.pk, user=user)
    game = _play_to_end(game, random.Random(8))
    client.force_login(ann)
    replay = client.get(f"/api/v1/games/{game.pk}/replay").json()
    assert len(replay["views"]) == game.seq + 1 and len(replay["moves"]) == game.seq
    assert replay["views"][-1]["ranking"] == game.result["ranking"]
    assert client.get(f"/games/{game.pk}/replay/").status_code == 200

    record = client.get(f"/api/v1/games/{game.pk}/record").json()
    response = client.post(reverse("record_import"), {"text": json.dumps(record)})
    copy = Game.objects.exclude(pk=game.pk).get()
    assert response.status_code == 302 and response["Location"] == f"/games/{copy.pk}/replay/"
    assert copy.imported and copy.status == Game.FINISHED and copy.result == game.result
    copied = api_get(client, f"/api/v1/games/{copy.pk}/replay").json()
    assert copied["views"][-1] == replay["views"][-1]
    assert copied["players"] == replay["players"]


def test_importing_a_broken_record_says_why(ann_client):
    response = ann_client.post(reverse("record_import"), {"text": '{"format": "nope"}'},
                               follow=True)
    assert "cannot be replayed" in response.content.decode()
    assert not Game.objects.exists()


def test_the_api_imports_a_record_too(client, ann):
    from games.engine import export_record, new_game, random_move

    rng = random.Random(5)
    state = new_game(4, rng)
    for _ in range(30):
        state.apply(random_move(state, rng))
    record = export_record(state, ["a", "b", "c", "d"])
    client.force_login(ann)
    response = client.post("/api/v1/games/import", json.dumps(record),
                           content_type="application/json")
    assert response.status_code == 201
    assert response.json()["status"] == "finished" and response.json()["seq"] == 30


def test_bots_are_named_by_level_never_by_a_number(ann_client, ann):
    ann_client.post(reverse("game_create"), {
        "players": "3", "bots": ["basic", "strong"], "time_control": "live",
    })
    game = Game.objects.get()
    view = api_get(ann_client, f"/api/v1/games/{game.pk}").json()
    names = [p["name"] for p in view["players"]]  # seats are drawn at random at the start
    expected = {view["you"]: "ann"}
    for seat in game.seats.exclude(bot_level=None):
        expected[seat.index] = f"{seat.bot_level.capitalize()} bot"
    assert names == [expected[i] for i in range(3)]
    assert sorted(n.split()[0] for n in names) == ["Basic", "Strong", "ann"]


def test_two_bots_of_one_level_are_told_apart_by_letters(ann_client, ann):
    ann_client.post(reverse("game_create"), {
        "players": "4", "bots": ["basic", "basic", "strong"], "time_control": "live",
    })
    game = Game.objects.get()
    names = [p["name"] for p in api_get(ann_client, f"/api/v1/games/{game.pk}").json()["players"]]
    assert sorted(names) == ["Basic bot A", "Basic bot B", "Strong bot", "ann"]
    assert not any(ch.isdigit() for ch in "".join(names))
