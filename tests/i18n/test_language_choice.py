"""Which language a page speaks: the account's setting, else the switch, else the browser's
Accept-Language, else English; the API: Accept-Language only, English by default."""

from datetime import date

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation

from accounts.models import User

pytestmark = pytest.mark.django_db


def _lang(response) -> str:
    page = response.content.decode()
    start = page.index("<html lang=\"") + len("<html lang=\"")
    return page[start:page.index('"', start)]


def test_a_visitor_gets_english_without_a_preference(client):
    response = client.get("/")
    assert _lang(response) == "en"
    assert ">Sign up<" in response.content.decode()


@pytest.mark.parametrize("header,lang,word", [
    ("ja,en;q=0.5", "ja", "新規登録"),
    ("es-MX,es;q=0.9,en;q=0.5", "es", "Registrarse"),
    ("de-DE,de;q=0.9", "en", "Sign up"),
])
def test_a_visitor_gets_the_browsers_language_when_the_site_has_it(client, header, lang, word):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE=header)
    assert _lang(response) == lang
    assert response["Content-Language"] == lang
    assert f">{word}<" in response.content.decode()


def test_the_switch_works_for_a_guest_and_sticks(client):
    response = client.post(reverse("language_switch"), {"language": "es", "next": "/play/"},
                           HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 302 and response["Location"] == "/play/"
    assert _lang(client.get("/", HTTP_ACCEPT_LANGUAGE="ja")) == "es"


def test_the_switch_refuses_an_unknown_language_and_changes_nothing(client):
    client.post(reverse("language_switch"), {"language": "xx", "next": "/"})
    assert _lang(client.get("/")) == "en"


def test_the_accounts_setting_wins_over_the_browser(client, ann):
    ann.language = "ja"
    ann.save()
    client.force_login(ann)
    assert _lang(client.get("/", HTTP_ACCEPT_LANGUAGE="es")) == "ja"


def test_the_switch_saves_a_players_choice_on_the_account(client, ann):
    client.force_login(ann)
    client.post(reverse("language_switch"), {"language": "es", "next": "/"})
    ann.refresh_from_db()
    assert ann.language == "es"
    assert _lang(client.get("/")) == "es"


def test_the_settings_page_changes_the_language_and_says_so_in_it(client, ann):
    client.force_login(ann)
    response = client.post(reverse("account_settings"), {
        "language": "ja", "email_on_turn": "never", "timezone": "Asia/Tokyo"}, follow=True)
    ann.refresh_from_db()
    assert ann.language == "ja"
    assert _lang(response) == "ja"
    assert "設定を保存しました。" in response.content.decode()
    # back to "the browser's language"
    response = client.post(reverse("account_settings"), {
        "language": "", "email_on_turn": "never", "timezone": "Asia/Tokyo"},
        HTTP_ACCEPT_LANGUAGE="es", follow=True)
    ann.refresh_from_db()
    assert ann.language == ""
    assert _lang(response) == "es"


def test_signing_up_keeps_the_language_of_the_page(client):
    response = client.post(reverse("account_signup"), {
        "username": "yuki", "email": "yuki@example.com",
        "password1": "kumo-no-ue-no-neko", "password2": "kumo-no-ue-no-neko",
    }, HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 302
    assert User.objects.get(username="yuki").language == "ja"


def test_dates_and_numbers_follow_the_language():
    with translation.override("es"):
        assert Template("{{ n }}").render(Context({"n": 1234.5})) == "1234,5"
        day = Template("{{ d }}").render(Context({"d": date(2026, 11, 23)}))
        assert day == "23 de noviembre de 2026"
    with translation.override("ja"):
        assert Template("{{ d }}").render(Context({"d": date(2026, 11, 23)})) == "2026年11月23日"


def test_the_javascript_catalogue_answers_in_the_pages_language(client):
    response = client.get(reverse("javascript-catalog"), HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 200
    assert "django.gettext" in response.content.decode()
    assert reverse("javascript-catalog") in client.get("/").content.decode()


def test_the_api_speaks_english_by_default_even_to_a_japanese_page_user(client, ann):
    ann.language = "ja"
    ann.save()
    client.force_login(ann)
    body = client.get("/api/v1/games/999999").json()
    assert body["error"].isascii()


def test_the_api_answers_errors_in_the_accept_language(client, ann):
    from accounts.services import api_token_create

    _, secret = api_token_create(user=ann, name="t")
    auth = {"HTTP_AUTHORIZATION": f"Bearer {secret}"}
    english = client.get("/api/v1/games/999999", **auth).json()["error"]
    japanese = client.get("/api/v1/games/999999", HTTP_ACCEPT_LANGUAGE="ja", **auth).json()
    assert english.isascii()
    assert japanese["error"] != english and not japanese["error"].isascii()


def test_the_engines_refusals_reach_a_program_in_its_language(client, ann, bob, cat):
    """The engine (no Django) marks its sentences; the API says them in Spanish."""
    from games import services
    from games.engine.words import Sentence
    from tests.games_helpers import api_post, bearer

    game = services.game_create(creator=ann, players=3)
    for user in (bob, cat):
        services.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    waiting = game.seats.get(index=game.waiting_on[0]).user
    other = next(u for u in (ann, bob, cat) if u != waiting)
    url = f"/api/v1/games/{game.pk}/moves"
    body = {"seq": game.seq, "move": {"move": "challenge", "cards": ["R5"]}}
    english = api_post(client, url, body, bearer(other)).json()["error"]
    spanish = api_post(client, url, body, {**bearer(other), "HTTP_ACCEPT_LANGUAGE": "es"})
    assert "waits on seat" in english
    assert spanish.status_code == 400
    assert "la partida espera al asiento" in spanish.json()["error"]
    # the engine's own exception still reads in English
    assert str(Sentence("seat {seat} cannot bet on themself", seat=1)) == (
        "seat 1 cannot bet on themself")
