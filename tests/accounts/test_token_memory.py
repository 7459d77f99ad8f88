"""A token a program uses again and again is looked up without a query, and yet a revoked
token, or a deactivated user's, is refused at once."""

import pytest
from django.contrib.auth import get_user_model

from accounts import token_cache
from accounts.services import api_token_create, api_token_find, api_token_revoke

pytestmark = pytest.mark.django_db(transaction=True)


def _find(secret):
    token = api_token_find(secret)
    return None if token is None else token.user.username


def test_a_token_used_again_needs_no_query(ann, django_assert_num_queries):
    _, secret = api_token_create(user=ann, name="bot")
    assert _find(secret) == "ann"  # read, and last_used written
    with django_assert_num_queries(0):
        assert _find(secret) == "ann"
        assert _find(secret) == "ann"


def test_a_revoked_token_is_refused_at_once(ann):
    token, secret = api_token_create(user=ann, name="bot")
    assert _find(secret) == "ann"
    assert api_token_revoke(user=ann, token_id=token.pk)
    assert _find(secret) is None


def test_a_deactivated_users_token_is_refused_at_once(ann):
    _, secret = api_token_create(user=ann, name="bot")
    assert _find(secret) == "ann"
    ann.is_active = False
    ann.save()
    assert _find(secret) is None


def test_another_process_forgetting_is_heard_through_the_shared_generation(ann):
    _, secret = api_token_create(user=ann, name="bot")
    assert _find(secret) == "ann"
    # another process revoked it: the row changed and the generation moved, not our memory
    from django.utils import timezone

    from accounts.models import ApiToken

    ApiToken.objects.filter(user=ann).update(revoked_at=timezone.now())
    assert _find(secret) == "ann"  # still remembered: nothing told this process
    _bump_elsewhere()
    assert _find(secret) is None


def _bump_elsewhere():
    from django.core.cache import cache

    cache.set(token_cache.GENERATION_KEY, (cache.get(token_cache.GENERATION_KEY) or 0) + 1,
              None)


def test_each_caller_gets_its_own_user_object(ann):
    _, secret = api_token_create(user=ann, name="bot")
    first, second = api_token_find(secret), api_token_find(secret)
    first.user.first_name = "changed by one request"
    assert second.user is not first.user and second.user.first_name != first.user.first_name
    assert get_user_model().objects.get(pk=ann.pk).first_name != "changed by one request"


def _later(monkeypatch, minutes: float):
    from datetime import timedelta

    from django.utils import timezone

    now = timezone.now() + timedelta(minutes=minutes)
    monkeypatch.setattr("accounts.services.timezone.now", lambda: now)
    return now


def test_a_remembered_token_due_for_its_last_use_write_is_not_read_again(
        ann, monkeypatch, django_assert_num_queries):
    from accounts.models import ApiToken

    token, secret = api_token_create(user=ann, name="bot")
    assert _find(secret) == "ann"
    later = _later(monkeypatch, 6)
    with django_assert_num_queries(1) as ctx:  # the write alone
        assert _find(secret) == "ann"
    assert ctx.captured_queries[0]["sql"].startswith("UPDATE")
    assert ApiToken.objects.get(pk=token.pk).last_used == later


def test_a_token_revoked_behind_the_caches_back_fails_at_its_next_last_use_write(
        ann, monkeypatch):
    from django.utils import timezone

    from accounts.models import ApiToken

    token, secret = api_token_create(user=ann, name="bot")
    assert _find(secret) == "ann"
    ApiToken.objects.filter(pk=token.pk).update(revoked_at=timezone.now())  # no signal
    _later(monkeypatch, 6)
    assert _find(secret) is None
