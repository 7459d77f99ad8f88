"""The rejection rule has one wording (games.words.REJECT_RULE, RULES.md §5.4: the same
value rejects), said alike on the home page, the table's tips and the rules page."""

import html
import re
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from games import services
from games.words import REJECT_RULE

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
# what an older wording said: a rejection needing a strictly "higher" card
OTHER_WORDINGS = re.compile(r"higher card|at least as high|higher or equal|same or higher",
                            re.I)


def test_the_rejection_rule_is_worded_in_one_string_only():
    sources = [p for folder in ("games", "accounts", "tournaments", "ratings",
                                "correspondence", "blaze_site", "templates", "static")
               for p in (ROOT / folder).rglob("*") if p.suffix in (".py", ".html", ".js")]
    found = {str(p.relative_to(ROOT)) for p in sources
             if OTHER_WORDINGS.search(p.read_text(encoding="utf-8"))}
    assert found == {"games/words.py"}
    assert "the same or higher" in str(REJECT_RULE)


@pytest.mark.parametrize("lang", ["en", "ja", "es"])
def test_home_rules_and_table_tips_say_that_rule_in_each_language(client, ann, bob, cat, lang):
    game = services.game_create(creator=ann, players=3)
    for user in (bob, cat):
        services.game_join(game_id=game.pk, user=user)
    client.force_login(ann)
    with translation.override(lang):
        rule = str(REJECT_RULE)
    assert lang == "en" or rule != str(REJECT_RULE)  # translated
    for url in ("/", reverse("rules"), f"/games/{game.pk}/"):
        page = html.unescape(client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode())
        assert rule in page, url
