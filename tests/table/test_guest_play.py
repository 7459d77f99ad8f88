"""A first game without an account: guests, their limits, keeping their games."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from accounts.services import guests_remove_unused
from games import services
from games.models import Game, Seat
from tournaments.services import TournamentError, tournament_register

pytestmark = pytest.mark.django_db


def _play_bots(client, **fields):
    return client.post(reverse("play_bots"), {"level": "basic", "players": "4", **fields})


def test_a_visitor_presses_play_against_bots_and_sits_at_a_started_table_as_a_guest(client):
    response = _play_bots(client, level="strong", players="3")
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    guest = User.objects.get(is_guest=True)
    assert guest.username.startswith("guest-") and not guest.has_usable_password()
    assert game.status == Game.PLAYING and not game.rated
    assert sorted(s.bot_level or s.user.username for s in game.seats.all()) == \
        sorted(["strong", "strong", guest.username])
    page = client.get(response["Location"]).content.decode()
    assert "Sign up and keep your games" in page  # the nav offers to keep the account


def test_a_guest_plays_again_without_a_second_account(client):
    _play_bots(client)
    _play_bots(client)
    assert User.objects.filter(is_guest=True).count() == 1
    assert Game.objects.count() == 2


def test_guest_creation_is_limited_per_address(client, settings):
    settings.GUEST_CREATE_PER_HOUR = 2
    for _ in range(2):
        assert _play_bots(client).status_code == 302
        client.logout()
    refused = _play_bots(client)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert User.objects.filter(is_guest=True).count() == 2
    # another address is not held back by this one
    other = client.post(reverse("play_bots"), {"level": "basic", "players": "4"},
                        REMOTE_ADDR="10.0.0.9")
    assert other.status_code == 302


def test_bad_choices_change_nothing(client):
    for fields in ({"level": "genius"}, {"players": "7"}, {"players": "x"}):
        response = _play_bots(client, **fields)
        assert response.status_code == 302 and response["Location"] == "/"
    assert not User.objects.exists() and not Game.objects.exists()


def test_guests_play_unrated_and_join_no_tournament(client, ann):
    _play_bots(client)
    guest = User.objects.get(is_guest=True)
    with pytest.raises(services.BadRequest):
        services.game_create(creator=guest, players=3, rated=True)
    rated = services.game_create(creator=ann, players=3, rated=True)
    with pytest.raises(services.Forbidden):
        services.game_join(game_id=rated.pk, user=guest)
    from tournaments.models import Tournament

    t = Tournament.objects.create(
        name="Cup", organiser=ann, registration_opens=timezone.now() - timedelta(hours=1),
        registration_closes=timezone.now() + timedelta(hours=1),
        starts_at=timezone.now() + timedelta(hours=2),
    )
    with pytest.raises(TournamentError, match="Guests"):
        tournament_register(tournament_id=t.pk, user=guest)


def test_a_guest_signs_up_and_keeps_its_games(client, fast_passwords):
    _play_bots(client)
    game = Game.objects.get()
    response = client.post(reverse("guest_claim"), {
        "username": "fay", "email": "fay@example.com",
        "password1": "fiery-bird-42-feathers", "password2": "fiery-bird-42-feathers"})
    assert response.status_code == 302
    fay = User.objects.get(username="fay")
    assert not fay.is_guest and fay.check_password("fiery-bird-42-feathers")
    assert game.seats.filter(user=fay).exists()
    assert not User.objects.filter(is_guest=True).exists()
    assert client.get(reverse("my_games")).status_code == 200  # still signed in


def test_claiming_with_a_taken_name_or_a_guest_name_is_refused(client, ann, fast_passwords):
    _play_bots(client)
    for name in ("ann", "guest-abc"):
        response = client.post(reverse("guest_claim"), {
            "username": name, "email": "x@example.com",
            "password1": "fiery-bird-42-feathers", "password2": "fiery-bird-42-feathers"})
        assert response.status_code == 200  # the form again, with its error
    assert User.objects.filter(is_guest=True).count() == 1


def test_unused_guests_are_removed_and_guests_with_games_kept(client):
    _play_bots(client)
    player = User.objects.get(is_guest=True)
    idle_old = User.objects.create(username="guest-old", is_guest=True)
    User.objects.create(username="guest-new", is_guest=True)
    long_ago = timezone.now() - timedelta(days=2)
    User.objects.filter(pk__in=[player.pk, idle_old.pk]).update(date_joined=long_ago)
    assert guests_remove_unused() == 1
    assert set(User.objects.filter(is_guest=True).values_list("username", flat=True)) == {
        player.username, "guest-new"}


def test_the_guest_sweep_is_on_the_beat_schedule(settings):
    tasks = {job["task"] for job in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "accounts.tasks.guests_remove" in tasks


def test_play_with_people_seats_you_at_an_open_table_of_that_size(client, ann, bob, cat):
    client.force_login(ann)
    client.post(reverse("play_people"), {"players": "3"})
    table = Game.objects.get()
    assert table.status == Game.WAITING and table.players == 3
    client.force_login(bob)
    client.post(reverse("play_people"), {"players": "3"})
    client.force_login(cat)
    client.post(reverse("play_people"), {"players": "4"})  # another size: a new table
    table.refresh_from_db()
    assert sorted(s.user.username for s in table.seats.all()) == ["ann", "bob"]
    assert Game.objects.filter(players=4, seats__user=cat).exists()


def test_lobby_seats_default_to_basic_bots(ann_client):
    page = ann_client.get(reverse("play")).content.decode()
    assert page.count('<option value="basic" selected>') == 4
    assert "<script>" not in page  # no inline script (CSP)


def test_play_again_starts_the_same_table_with_its_bots_and_invites_the_people(
        ann, bob, eager_tasks):
    game = services.game_create(creator=ann, players=3, bots=["random"])
    services.game_join(game_id=game.pk, user=bob)
    Game.objects.filter(pk=game.pk).update(status=Game.FINISHED)
    again = services.game_again(game_id=game.pk, user=ann)
    assert again.rematch_of_id == game.pk and again.status == Game.WAITING
    assert sorted(s.bot_level or s.user.username for s in again.seats.all()) == ["ann", "random"]
    same = services.game_again(game_id=game.pk, user=bob)  # bob takes the invitation
    assert same.pk == again.pk
    again.refresh_from_db()
    assert again.status == Game.PLAYING
    assert Seat.objects.filter(game=again, user=bob).exists()


def test_play_again_with_bots_only_starts_at_once(client):
    _play_bots(client, players="3")
    game = Game.objects.get()
    Game.objects.filter(pk=game.pk).update(status=Game.FINISHED)
    response = client.post(reverse("game_again", args=[game.pk]))
    again = Game.objects.exclude(pk=game.pk).get()
    assert response["Location"] == f"/games/{again.pk}/"
    assert again.status == Game.PLAYING and again.seats.filter(bot_level="basic").count() == 2


def test_play_again_before_the_end_is_refused(ann_client, ann):
    game = services.game_create(creator=ann, players=3, bots=["random", "random"])
    ann_client.post(reverse("game_again", args=[game.pk]))
    assert Game.objects.count() == 1
