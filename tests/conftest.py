import random

import pytest
from allauth.account.models import EmailAddress
from django.core.cache import cache
from django.utils import translation

from accounts.models import User

PASSWORD = "correct-horse-battery-staple"


def make_user(username: str, *, verified: bool = True, **fields) -> User:
    """A player with a password and (by default) a verified primary email."""
    email = f"{username}@example.com"
    user = User.objects.create_user(username=username, email=email, password=PASSWORD, **fields)
    EmailAddress.objects.create(user=user, email=email, primary=True, verified=verified)
    return user


@pytest.fixture(autouse=True)
def _default_language():
    # A request in another language leaves it active in the thread (LocaleMiddleware):
    # every test starts and ends in the site's default language, whatever ran before.
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _deals_of_this_test(request, monkeypatch):
    # The site deals and seats with secrets.SystemRandom; a test deals from a generator
    # seeded with its own name, so a test that passes here passes on any machine (CI
    # failed on deals no local run drew: a game longer than a bound, no turn for a viewer).
    # The bots' moves too (lib.chance): a bot game in a test plays the same everywhere.
    from games import services
    from lib import chance

    monkeypatch.setattr(services, "_system", random.Random(request.node.nodeid))
    monkeypatch.setattr(chance, "_source", random.Random("bots " + request.node.nodeid))


@pytest.fixture(autouse=True)
def _token_changes_unheard(monkeypatch):
    # In this process every lookup reads the shared generation, as before the listener
    # (lib.change_feed), whose announcements arrive when they will: a query counted in a
    # test must not depend on when. tests/accounts/test_token_feed.py holds the listener;
    # the web processes the tests start run it as production does.
    from accounts import token_cache
    from lib.change_feed import ChangeFeed

    monkeypatch.setattr(token_cache, "_changes", ChangeFeed("off", where=lambda: None))


@pytest.fixture(autouse=True)
def _clear_cache():
    # Rate limits are counted in the cache; every test starts with a clean slate (and no
    # token remembered from another test's rows, nor a game state: a rolled-back test's
    # game ids come again in the next test, with other deals, nor a live check this
    # process queued for such an id).
    from accounts import token_cache
    from clocks.clocks import live_checks_forget
    from games.selectors import state_cache_clear
    from lib.ratelimits import forget_blocks

    cache.clear()
    forget_blocks()
    token_cache.clear()
    state_cache_clear()
    live_checks_forget()
    yield
    cache.clear()
    forget_blocks()
    token_cache.clear()
    state_cache_clear()


@pytest.fixture
def password():
    return PASSWORD


@pytest.fixture
def ann(db):
    return make_user("ann")


@pytest.fixture
def bob(db):
    return make_user("bob")


@pytest.fixture
def cat(db):
    return make_user("cat")


@pytest.fixture
def dan(db):
    return make_user("dan")


@pytest.fixture
def eve(db):
    return make_user("eve")


@pytest.fixture
def players(ann, bob, cat):
    """Three players, as most three-seat games in the tests need them."""
    return [ann, bob, cat]


@pytest.fixture
def ann_client(client, ann):
    client.force_login(ann)
    return client


@pytest.fixture
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def eager_tasks():
    """Celery tasks (bot turns, tournament rounds, emails) run in-process, Redis or not."""
    from blaze_site.celery import app as celery_app
    from games.selectors import state_cache_clear

    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    state_cache_clear()
    yield
    celery_app.conf.task_always_eager = before
    state_cache_clear()
