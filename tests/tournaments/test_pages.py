"""The tournament pages: list, create, detail with buttons, start now."""

from tournaments.models import Registration, Tournament

from .conftest import make_players, make_tournament, register_all


def test_the_list_shows_upcoming_running_and_finished(client, ann):
    make_tournament(ann, name="Spring Open")
    page = client.get("/tournaments/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Spring Open" in text and "Upcoming" in text and "Running" in text
    assert "Finished" in text


def test_creating_needs_a_login(client, db):
    assert client.get("/tournaments/new/").status_code == 302


def test_a_player_creates_a_tournament_with_the_form(ann_client, ann):
    page = ann_client.get("/tournaments/new/")
    assert b'<label for="id_name">' in page.content
    reply = ann_client.post("/tournaments/new/", {
        "name": "Winter Cup", "format": "swiss", "table_size": "4", "rounds": "3",
        "advance_per_table": "2", "time_control": "live",
        "registration_closes": "2099-01-01T12:00", "min_players": "3", "max_players": "20",
        "bot_level": "basic",
    })
    t = Tournament.objects.get(name="Winter Cup")
    assert reply.status_code == 302 and reply.url == f"/tournaments/{t.pk}/"
    assert t.organiser == ann and t.max_players == 20


def test_register_withdraw_and_start_now_from_the_detail_page(ann_client, ann):
    cup = make_tournament(ann)
    url = f"/tournaments/{cup.pk}/"
    assert b"Register" in ann_client.get(url).content
    ann_client.post(f"{url}register/")
    assert Registration.objects.filter(user=ann).exists()
    again = ann_client.post(f"{url}register/", follow=True)
    assert b"already registered" in again.content
    ann_client.post(f"{url}withdraw/")
    assert not Registration.objects.filter(user=ann).exists()
    register_all(cup, make_players("p", 4))
    page = ann_client.get(url)
    assert b"Start now" in page.content
    ann_client.post(f"{url}start/")
    page = ann_client.get(url).content.decode()
    assert "Round 1" in page and "/games/" in page and "Standings" in page
