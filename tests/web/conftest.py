import pytest


@pytest.fixture(autouse=True)
def _services_setup(fast_passwords, eager_tasks):
    """Fast password hashing, in-process tasks and a fresh state cache for every test."""
