"""A bot has one name per level everywhere, in the reader's language: the table, the
lobby, tournaments and the ratings pages show the house bot "bot-strong" as "Strong bot"."""

import html
import re

import pytest
from django.urls import reverse
from django.utils import translation

from accounts.services import bots_create
from games import services
from games.models import BOT_NAMES, bot_name
from games.selectors import game_view_for
from ratings.services import game_finished_record

from .factories import finished_game

pytestmark = pytest.mark.django_db


def _text(page: str) -> str:
    """What a reader sees: the page without its tags and attributes (links keep bot-…)."""
    return html.unescape(re.sub(r"<[^>]*>", " ", page))


@pytest.fixture
def rated_with_a_bot(ann, bob):
    bots_create()
    game_finished_record(game_id=finished_game([ann, bob, "bot:strong"], handmade_game=True).pk)


@pytest.mark.parametrize("lang", ["en", "ja", "es"])
def test_ratings_pages_name_the_house_bot_by_its_level(client, rated_with_a_bot, lang):
    with translation.override(lang):
        strong = bot_name("strong")
    assert lang == "en" or strong != "Strong bot"
    for url in (reverse("leaderboard") + "?min=0", reverse("profile", args=["bot-strong"]),
                reverse("profile", args=["ann"])):
        seen = _text(client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode())
        assert strong in seen, url
        assert "bot-strong" not in seen, url


@pytest.mark.parametrize("lang", ["en", "ja", "es"])
def test_the_table_and_the_lobby_use_the_same_names(client, ann, lang):
    game = services.game_create(creator=ann, players=4, bots=["random", "basic", "strong"])
    client.force_login(ann)
    with translation.override(lang):
        names = [str(n) for n in BOT_NAMES.values()]
        seated = [p["name"] for p in game_view_for(game, ann)["players"] if p["bot"]]
    assert sorted(seated) == sorted(names)
    lobby = _text(client.get(reverse("play"), HTTP_ACCEPT_LANGUAGE=lang).content.decode())
    assert all(name in lobby for name in names)
