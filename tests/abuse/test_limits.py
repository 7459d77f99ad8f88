"""Size limits: records, request bodies and replays cannot blow up the server."""

import asyncio
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games.models import Game
from tests.abuse.conftest import finished_record, record_moves
from tests.games_helpers import api_post, bearer

pytestmark = pytest.mark.django_db


def test_a_record_padded_past_one_megabyte_is_refused_before_it_is_parsed(client, ann):
    body = json.dumps(finished_record()) + " " * 1_200_000  # still a legal record
    response = api_post(client, "/api/v1/games/import", body, bearer(ann))
    assert response.status_code == 413
    assert "at most 1,000,000 bytes" in response.json()["error"]
    assert not Game.objects.exists()


def test_a_record_of_normal_size_imports(client, ann):
    response = api_post(client, "/api/v1/games/import", finished_record(), bearer(ann))
    assert response.status_code == 201


def test_a_record_longer_than_a_game_on_the_site_may_be_is_refused(client, ann, settings):
    record = finished_record()
    settings.BLAZE_MAX_GAME_MOVES = record_moves(record) - 1
    response = api_post(client, "/api/v1/games/import", record, bearer(ann))
    assert response.status_code == 400
    assert f"at most {record_moves(record) - 1} moves" in response.json()["error"]
    assert not Game.objects.exists()


def test_the_import_page_refuses_a_big_upload_without_reading_it(ann_client, settings):
    settings.BLAZE_MAX_RECORD_BYTES = 50_000
    upload = SimpleUploadedFile("big.json", b" " * 60_000 + json.dumps(finished_record()).encode())
    page = ann_client.post(reverse("record_import"), {"record": upload}, follow=True)
    assert "too big: a record is at most 50,000 bytes" in page.content.decode()
    assert not Game.objects.exists()


def test_the_import_page_answers_deeply_nested_json_with_a_sentence(ann_client):
    nested = "[" * 100_000 + "]" * 100_000
    page = ann_client.post(reverse("record_import"), {"text": nested}, follow=True)
    assert page.status_code == 200
    assert "nested too deeply" in page.content.decode()
    assert not Game.objects.exists()


def test_a_replay_comes_in_pages_that_add_up_to_the_whole_game(client, ann, settings):
    settings.BLAZE_REPLAY_PAGE_SIZE = 40
    record = finished_record(seed=3)
    auth = bearer(ann)
    game_id = api_post(client, "/api/v1/games/import", record, auth).json()["id"]
    moves, views, start, pages = [], [], 0, 0
    while start is not None:
        page = client.get(f"/api/v1/games/{game_id}/replay?start={start}&limit=500", **auth)
        assert page.status_code == 200
        data = page.json()
        assert len(data["views"]) <= 40 and data["start"] == start
        moves += data["moves"]
        views += data["views"]
        start, pages = data["next"], pages + 1
    total = record_moves(record)
    assert pages == total // 40 + 1
    assert data["total_moves"] == total and len(moves) == total and len(views) == total + 1
    assert moves == [m for r in record["rounds"] for m in r["moves"]]
    assert views[-1]["ranking"] is not None and views[0]["table"] == []


def test_a_replay_page_past_the_end_is_empty(client, ann):
    auth = bearer(ann)
    game_id = api_post(client, "/api/v1/games/import", finished_record(), auth).json()["id"]
    data = client.get(f"/api/v1/games/{game_id}/replay?start=100000", **auth).json()
    assert data["views"] == [] and data["moves"] == [] and data["next"] is None


# ---- the ASGI cap in front of Django ----------------------------------------------------


async def _asgi_post(path: str, chunks: list[bytes], headers: list) -> tuple[int, dict, bytes]:
    from channels.testing import ApplicationCommunicator

    from blaze_site.asgi import application

    scope = {"type": "http", "method": "POST", "path": path, "raw_path": path.encode(),
             "query_string": b"", "headers": [(b"host", b"testserver"), *headers],
             "scheme": "http", "server": ("testserver", 80), "client": ("127.0.0.1", 5000),
             "http_version": "1.1", "asgi": {"version": "3.0"}}
    comm = ApplicationCommunicator(application, scope)
    for i, chunk in enumerate(chunks):
        await comm.send_input({"type": "http.request", "body": chunk,
                               "more_body": i < len(chunks) - 1})
    start = await comm.receive_output(10)
    body = b""
    while True:
        message = await comm.receive_output(10)
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    await comm.wait(10)
    return start["status"], dict(start["headers"]), body


def test_a_declared_body_over_the_cap_is_answered_413_before_a_byte_is_read():
    from django.conf import settings

    too_big = str(settings.BLAZE_MAX_BODY_BYTES + 1).encode()
    status, headers, body = asyncio.run(_asgi_post(
        "/api/v1/games/import", [], [(b"content-length", too_big),
                                     (b"content-type", b"application/json")]))
    assert status == 413 and headers[b"content-type"] == b"application/json"
    assert "too big" in json.loads(body)["error"]


def test_a_chunked_body_is_cut_off_once_it_passes_the_cap():
    from django.conf import settings

    chunk = b" " * 100_000
    n = settings.BLAZE_MAX_BODY_BYTES // len(chunk) + 2
    status, _, body = asyncio.run(_asgi_post(
        "/games/import/", [chunk] * n, [(b"content-type", b"text/plain")]))
    assert status == 413 and b"too big" in body
