"""NaN, Infinity and -Infinity are Python's, not JSON's (RFC 8259): every door that reads
JSON refuses them with a sentence and changes nothing."""

import json

import pytest
from django.urls import reverse

from games.engine import replay_line
from games.models import Game
from tests.abuse.conftest import finished_record
from tests.games_helpers import api_post, bearer

pytestmark = pytest.mark.django_db

CONSTANTS = ["NaN", "Infinity", "-Infinity"]


def _with(constant: str) -> str:
    text = json.dumps(finished_record())
    return text[:-1] + f', "meta": {{"note": {constant}}}}}'


@pytest.mark.parametrize("constant", CONSTANTS)
def test_blaze_replay_reports_a_record_holding_a_non_json_number_as_not_json(constant):
    assert replay_line(json.dumps(finished_record()))["ok"]  # the same record, valid
    result = replay_line(_with(constant))
    assert result["ok"] is False and result["round"] is None and result["ply"] is None
    assert result["error"].startswith("not valid JSON") and constant.lstrip("-") in result["error"]


@pytest.mark.parametrize("constant", CONSTANTS)
def test_the_import_api_refuses_a_non_json_number_and_keeps_nothing(client, ann, constant):
    response = api_post(client, "/api/v1/games/import", _with(constant), bearer(ann))
    assert response.status_code == 400
    assert response.json()["error"] == f"the body is not JSON: {constant} is not a JSON number"
    assert not Game.objects.exists()


def test_the_import_page_refuses_a_non_json_number_and_keeps_nothing(ann_client):
    page = ann_client.post(reverse("record_import"), {"text": _with("NaN")}, follow=True)
    assert "That is not JSON" in page.content.decode()
    assert not Game.objects.exists()


def test_a_request_body_holding_a_non_json_number_is_refused_with_a_sentence(client, ann):
    response = api_post(client, "/api/v1/games", '{"players": 3, "rated": NaN}', bearer(ann))
    assert response.status_code == 400
    # refused as a body, saying why, not as a field's value
    assert response.json()["error"] == "the body is not JSON: NaN is not a JSON number"
    assert not Game.objects.exists()


def test_an_integer_too_long_for_python_is_refused_with_a_sentence(client, ann):
    body = '{"players": ' + "3" * 5001 + "}"
    response = api_post(client, "/api/v1/games", body, bearer(ann))
    assert response.status_code == 400 and response.json()["error"]
    assert not Game.objects.exists()
