"""The pages' forms refuse what they do not offer, with a sentence, and change nothing:
a date at the calendar's end, a digit that is not 0-9, an answer that is neither accept
nor decline, a free-text choice that is neither on nor off, a time control not offered."""

import pytest
from django.urls import reverse

from clocks.models import Vacation
from games.models import Game
from notifications.preferences import SettingsRefused, notice_settings_set
from social.challenges import challenge_create
from social.models import Challenge, Invitation, TalkSettings
from social.readers import free_text_on
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("first,last", [("9999-12-31", "9999-12-31"),
                                        ("9999-12-30", "9999-12-31")])
def test_a_vacation_at_the_calendars_end_is_refused_not_a_server_error(ann_client, first, last):
    page = ann_client.post(reverse("vacation"), {"first_day": first, "last_day": last})
    assert page.status_code == 400
    assert "a vacation must end within a year from today" in page.content.decode()
    assert not Vacation.objects.exists()


@pytest.mark.parametrize("hours", ["²", "١٢", "12²"])
def test_reminder_hours_are_digits_0_to_9_only(ann, hours):
    with pytest.raises(SettingsRefused, match="whole number of hours"):
        notice_settings_set(user=ann, reminder_hours=[hours])
    ann.refresh_from_db()
    assert ann.reminder_hours == []


def test_an_invitation_answer_must_be_accept_or_decline(ann_client, ann):
    bob = make_user("bob")
    challenge = challenge_create(sender=bob, usernames=["ann"], players=3, bots=["basic"])
    for answer in ({"answer": "garbage"}, {}):
        page = ann_client.post(reverse("invitation_answer", args=[challenge.pk]), answer,
                               follow=True)
        assert "Answer the invitation: accept or decline." in page.content.decode()
    assert Challenge.objects.get().status == challenge.status
    assert Invitation.objects.get().answer == Invitation.PENDING


def test_the_free_text_choice_must_be_on_or_off(ann_client, ann):
    before = free_text_on(ann)
    for choice in ({"free_text": "garbage"}, {}):
        page = ann_client.post(reverse("talk_free_text"), choice, follow=True)
        assert "Choose free text on or off." in page.content.decode()
    assert not TalkSettings.objects.filter(user=ann).exists()
    assert free_text_on(ann) == before


def test_a_time_control_the_lobby_does_not_offer_is_refused(ann_client):
    page = ann_client.post(reverse("game_create"), {"players": "3", "time_control": "bogus"},
                           follow=True)
    assert "time_control must be an object" in page.content.decode()
    assert not Game.objects.exists()


@pytest.mark.parametrize("name,words", [("x" * 151, "at most 150 characters"),
                                        ("", "This field is required.")])
def test_a_name_the_form_refuses_is_said_as_such(ann_client, name, words):
    for url in ("friends_follow", "friends_block", "friends_unfollow", "friends_unblock"):
        page = ann_client.post(reverse(url), {"username": name}, follow=True).content.decode()
        assert "Player: " in page and words in page, url
        assert "there is no player called" not in page


def test_an_invitation_the_form_refuses_names_its_fault(ann_client):
    page = ann_client.post(reverse("friends_invite"), {"usernames": "bob", "players": "7",
                                                       "bot_level": "basic"}, follow=True)
    assert "Table size: " in page.content.decode()
    assert not Challenge.objects.exists()


def test_revoking_a_token_that_is_not_yours_says_so_and_keeps_it(ann_client):
    from accounts.models import ApiToken
    from accounts.services import api_token_create

    bob = make_user("bob")
    token, _secret = api_token_create(user=bob, name="bobs")
    for token_id in (token.pk, 999999):
        page = ann_client.post(reverse("account_token_revoke", args=[token_id]), follow=True)
        assert "No token of yours to revoke there." in page.content.decode()
    assert ApiToken.objects.get(pk=token.pk).revoked_at is None


def test_marking_a_notice_not_yours_read_says_so_and_changes_nothing(ann_client):
    from notifications.models import Notification

    bob = make_user("bob")
    theirs = Notification.objects.create(user=bob, kind=Notification.YOUR_TURN, key="k",
                                         text="your turn")
    page = ann_client.post(reverse("notification_read", args=[theirs.pk]), follow=True)
    assert "There is no such notice of yours." in page.content.decode()
    theirs.refresh_from_db()
    assert theirs.read is False
