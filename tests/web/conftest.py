import uuid

import pytest
from django.conf import settings as django_settings


@pytest.fixture(autouse=True)
def _services_setup(fast_passwords, eager_tasks):
    """Fast password hashing, in-process tasks and a fresh state cache for every test."""


@pytest.fixture
def own_channel_prefix(settings):
    """A channel layer of this test's own on a shared Redis: no other test's messages."""
    layers = {k: dict(v) for k, v in django_settings.CHANNEL_LAYERS.items()}
    if "redis" in layers["default"]["BACKEND"].lower():
        layers["default"]["CONFIG"] = {**layers["default"].get("CONFIG", {}),
                                       "prefix": f"test-{uuid.uuid4().hex[:8]}"}
    settings.CHANNEL_LAYERS = layers
