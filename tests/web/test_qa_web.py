"""Bugs found by walking through the site as a player (QA, branch qa-web)."""

import json
import random
import re
from pathlib import Path

import pytest
from django.urls import reverse

from accounts.services import api_token_create
from games.models import Game

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def test_importing_with_no_file_and_no_text_asks_for_a_record(ann_client):
    page = ann_client.post(reverse("record_import"), {"text": "  "}, follow=True)
    text = page.content.decode()
    assert "Choose a record file or paste one" in text
    assert "not JSON" not in text and "line 1 column 1" not in text
    assert not Game.objects.exists()


def test_the_tokens_table_scrolls_sideways_on_phones_and_says_its_time_zone(ann_client, ann):
    api_token_create(user=ann, name="my bot")
    page = ann_client.get(reverse("account_tokens")).content.decode()
    assert re.search(r'<div class="table-scroll"[^>]*>\s*<table class="table">', page)
    assert "Created (UTC)" in page and "Last used (UTC)" in page  # no time zone chosen


def test_the_replay_page_lays_players_out_like_the_table(ann_client):
    from games.engine import export_record, new_game, random_move

    rng = random.Random(2)
    state = new_game(3, random.Random(1))
    while not state.finished:
        state.apply(random_move(state, rng))
    ann_client.post(reverse("record_import"),
                    {"text": json.dumps(export_record(state, ["a", "b", "c"]))})
    game = Game.objects.get()
    page = ann_client.get(reverse("game_replay", args=[game.pk])).content.decode()
    # one board template (games/_board.html) for the table and the replay
    assert '<div class="felt" id="felt">' in page and '<ul id="players" class="players"' in page
    assert 'id="ranking-title"' in page


def test_the_replay_viewer_describes_the_last_move_in_words_not_json():
    script = (ROOT / "static/js/table/replay.js").read_text()
    assert "JSON.stringify" not in script
    assert "data.log" in script  # the server's words (games/narration.py)


@pytest.mark.parametrize("kind", ["number", "date", "datetime-local"])
def test_number_and_date_fields_get_the_same_full_width_style_as_text_fields(kind):
    # the tournament form (rounds, dates) and the vacation form used tiny browser defaults
    css = (ROOT / "static/css/site.css").read_text()
    rule = css[:css.index("{", css.index('input[type="text"]'))]
    assert f'input[type="{kind}"]' in rule
