"""Usernames: one Unicode form, and no look-alikes of other players' or the bots' names."""

import pytest
from django.urls import reverse

from accounts.models import User
from accounts.names import username_skeleton

pytestmark = pytest.mark.django_db


def _signup(client, username):
    return client.post(reverse("account_signup"), {
        "username": username, "email": f"{username.encode().hex()}@example.com",
        "password1": "fiery-bird-42-feathers", "password2": "fiery-bird-42-feathers",
    })


def _refused(response, words):
    assert response.status_code == 200
    assert words in response.content.decode()


def test_a_cyrillic_look_alike_of_an_existing_name_is_refused(client, ann):
    _refused(_signup(client, "\u0430nn"), "look-alike letters")  # Cyrillic а
    assert User.objects.count() == 1


def test_a_name_wholly_in_look_alike_cyrillic_letters_is_refused_when_taken(client, db):
    User.objects.create_user(username="ace")
    _refused(_signup(client, "\u0430\u0441\u0435"), "looks like another player")  # асе
    assert User.objects.count() == 1


def test_a_look_alike_of_a_bot_name_is_refused(client, db):
    User.objects.create_user(username="bot-strong", is_bot=True)
    _refused(_signup(client, "b\u043et-strong"), "for bots")  # Cyrillic о
    assert not User.objects.filter(username__startswith="b").exclude(username="bot-strong")


def test_full_width_letters_are_read_as_the_plain_name(client, ann):
    _refused(_signup(client, "\uff41\uff4e\uff4e"), "already")  # ａｎｎ is ann
    assert User.objects.count() == 1


def test_names_in_one_script_of_any_alphabet_are_welcome(client, db):
    for name in ("Jos\u00e9", "\u7530\u4e2d", "\u0418\u0432\u0430\u043d"):  # José, 田中, Иван
        assert _signup(client, name).status_code == 302, name
        client.logout()
    assert User.objects.count() == 3


def test_a_stored_name_is_nfkc_normalized(client, db):
    assert _signup(client, "\ufb01sh").status_code == 302  # the ligature ﬁ
    assert User.objects.get().username == "fish"


def test_the_skeleton_reads_look_alikes_as_latin():
    assert username_skeleton("\u0430nn") == "ann"
    assert username_skeleton("Bob1") == "bob1"


@pytest.mark.parametrize("name", ["bot_strong", "b0t-strong", "BOT.strong", "bot-str0ng"])
def test_ascii_look_alikes_of_a_bot_name_are_refused(client, db, name):
    User.objects.create_user(username="bot-strong", is_bot=True)
    _refused(_signup(client, name), "for bots")
    assert User.objects.count() == 1


@pytest.mark.parametrize("name", ["b0b_smith", "bob-sm1th", "B0B.SMITH", "bob_smlth"])
def test_ascii_look_alikes_of_an_existing_name_are_refused(client, db, name):
    User.objects.create_user(username="bob-smith")
    _refused(_signup(client, name), "looks like another player")
    assert User.objects.count() == 1


@pytest.mark.parametrize("name", ["adm1n", "b0t", "ap1"])
def test_look_alikes_of_reserved_names_are_refused(client, db, name):
    _refused(_signup(client, name), "reserved")
    assert not User.objects.exists()


def test_a_guest_keeping_its_account_meets_the_same_rule(client, db):
    from accounts.services import guest_create

    User.objects.create_user(username="bot-strong", is_bot=True)
    guest = guest_create(ip="192.0.2.7")
    client.force_login(guest)
    response = client.post(reverse("guest_claim"), {
        "username": "b0t_strong", "email": "g@example.com",
        "password1": "fiery-bird-42-feathers", "password2": "fiery-bird-42-feathers"})
    _refused(response, "for bots")
    assert User.objects.get(pk=guest.pk).is_guest


def test_names_that_merely_share_letters_are_welcome(client, db):
    User.objects.create_user(username="bob-smith")
    assert _signup(client, "bob-smiths").status_code == 302
