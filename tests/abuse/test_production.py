"""Production settings refuse unsafe values; pages carry a CSP and secret pages no-store."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

from games import services
from lib.vapid import new_private_key
from tests.abuse.conftest import finished_record
from tests.games_helpers import api_post, bearer

ROOT = Path(__file__).resolve().parents[2]
STRONG_KEY = "k" + "".join(chr(ord("a") + i % 26) for i in range(60))


def _settings_import(**env):
    full = {k: v for k, v in os.environ.items()
            if k not in {"DEBUG", "BLAZE_ENV", "SECRET_KEY", "ALLOWED_HOSTS"}}
    full.update(env)
    return subprocess.run([sys.executable, "-c", "import blaze_site.settings"], cwd=ROOT,
                          env=full, capture_output=True, text=True)


@pytest.mark.parametrize("key", ["short", "x" * 60, "django-insecure-" + "abcdefgh" * 6])
def test_production_refuses_a_weak_secret_key(key):
    result = _settings_import(BLAZE_ENV="production", SECRET_KEY=key,
                              ALLOWED_HOSTS="blaze.example")
    assert result.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY is too weak" in result.stderr


@pytest.mark.parametrize("hosts", ["*", "blaze.example,*"])
def test_production_refuses_a_wildcard_allowed_hosts(hosts):
    result = _settings_import(BLAZE_ENV="production", SECRET_KEY=STRONG_KEY, ALLOWED_HOSTS=hosts)
    assert result.returncode != 0
    assert "ALLOWED_HOSTS must name the site's own hosts" in result.stderr


def test_production_takes_a_strong_key_and_named_hosts():
    result = _settings_import(BLAZE_ENV="production", SECRET_KEY=STRONG_KEY,
                              ALLOWED_HOSTS="blaze.example",
                              WEBPUSH_VAPID_PRIVATE_KEY=new_private_key())
    assert result.returncode == 0, result.stderr


def test_production_refuses_to_start_push_without_a_vapid_key():
    result = _settings_import(BLAZE_ENV="production", SECRET_KEY=STRONG_KEY,
                              ALLOWED_HOSTS="blaze.example", WEBPUSH_VAPID_PRIVATE_KEY="")
    assert result.returncode != 0
    assert "WEBPUSH_VAPID_PRIVATE_KEY must be set" in result.stderr
    # ...unless push is turned off; and a key that is not one is refused anywhere.
    assert _settings_import(BLAZE_ENV="production", SECRET_KEY=STRONG_KEY,
                            ALLOWED_HOSTS="blaze.example", WEBPUSH_ENABLED="0",
                            WEBPUSH_VAPID_PRIVATE_KEY="").returncode == 0
    result = _settings_import(WEBPUSH_VAPID_PRIVATE_KEY="c2hvcnQ")
    assert result.returncode != 0 and "32 bytes" in result.stderr


_INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I)
_HANDLER_ATTR = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)


@pytest.mark.django_db
def test_every_page_has_a_csp_without_inline_script_and_runs_none(client, ann, bob, cat):
    game = services.game_create(creator=ann, players=3)
    for user in (bob, cat):
        services.game_join(game_id=game.pk, user=user)
    imported = api_post(client, "/api/v1/games/import", finished_record(), bearer(ann)).json()
    anonymous = ["/", "/play/", "/account/login/", "/account/signup/", "/leaderboard/",
                 "/tournaments/", "/api/v1/docs"]
    signed_in = ["/games/", f"/games/{game.pk}/", f"/games/{imported['id']}/replay/",
                 "/account/tokens/", "/account/settings/", f"/u/{ann.username}/"]
    for url in anonymous + ["login"] + signed_in:
        if url == "login":
            client.force_login(ann)
            continue
        response = client.get(url)
        assert response.status_code == 200, url
        policy = response["Content-Security-Policy"]
        script_src = re.search(r"script-src ([^;]*)", policy).group(1)
        assert script_src.split() == ["'self'"], (url, policy)
        html = response.content.decode()
        assert not _INLINE_SCRIPT.search(html), (url, _INLINE_SCRIPT.search(html).group(0))
        assert not _HANDLER_ATTR.search(html), (url, _HANDLER_ATTR.search(html).group(0))


@pytest.mark.django_db
def test_the_page_showing_a_new_token_is_never_stored(ann_client):
    response = ann_client.post(reverse("account_tokens"), {"name": "my bot"})
    assert "blz_" in response.content.decode()
    assert "no-store" in response["Cache-Control"]


@pytest.mark.django_db
def test_a_players_view_from_the_api_is_never_stored(client, ann):
    game = services.game_create(creator=ann, players=3)
    response = client.get(f"/api/v1/games/{game.pk}", **bearer(ann))
    assert "no-store" in response["Cache-Control"]


def test_no_store_headers_are_djangos_own_and_keep_what_a_view_set():
    from django.http import HttpResponse
    from django.test import RequestFactory
    from django.utils.cache import add_never_cache_headers
    from django.utils.http import parse_http_date

    from blaze_site.security import NoStoreMiddleware

    expected = HttpResponse()
    add_never_cache_headers(expected)
    plain = NoStoreMiddleware(lambda request: HttpResponse())(RequestFactory().get("/api/v1/x"))
    assert plain["Cache-Control"] == expected["Cache-Control"]
    assert abs(parse_http_date(plain["Expires"]) - parse_http_date(expected["Expires"])) <= 1

    def view_with_its_own(request):
        response = HttpResponse()
        response["Cache-Control"] = "max-age=60, public"
        return response

    merged = NoStoreMiddleware(view_with_its_own)(RequestFactory().get("/games/1/"))
    assert "no-store" in merged["Cache-Control"] and "max-age=0" in merged["Cache-Control"]
    page = NoStoreMiddleware(lambda request: HttpResponse())(RequestFactory().get("/rules/"))
    assert "Cache-Control" not in page and "Expires" not in page


@pytest.mark.django_db
def test_public_pages_may_still_be_cached(client):
    assert "no-store" not in client.get("/leaderboard/").get("Cache-Control", "")


@pytest.mark.django_db
def test_the_apis_json_answers_forbid_loading_and_framing_anything(client, ann):
    game = services.game_create(creator=ann, players=3)
    for response in (client.get(f"/api/v1/games/{game.pk}", **bearer(ann)),
                     client.get("/api/v1/games/999999", **bearer(ann)),
                     api_post(client, f"/api/v1/games/{game.pk}/moves",
                              {"seq": 0, "move": "nonsense"}, bearer(ann))):
        assert response["Content-Type"].startswith("application/json")
        assert response["Content-Security-Policy"] == "default-src 'none'; frame-ancestors 'none'"


@pytest.mark.django_db
def test_a_stale_seq_409_writes_no_log_line_and_a_missing_game_does(client, ann, caplog):
    game = services.game_create(creator=ann, players=3)
    with caplog.at_level("INFO"):
        stale = api_post(client, f"/api/v1/games/{game.pk}/moves",
                         {"seq": 7, "move": {"move": "pass"}}, bearer(ann))
        missing = client.get("/api/v1/games/999999", **bearer(ann))
    assert (stale.status_code, missing.status_code) == (409, 404)
    lines = [r.getMessage() for r in caplog.records if r.name == "django.request"]
    assert lines == ["Not Found: /api/v1/games/999999"]
