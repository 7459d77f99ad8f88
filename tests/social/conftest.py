import pytest


@pytest.fixture(autouse=True)
def _services_setup(fast_passwords, eager_tasks):
    """Fast password hashing and in-process tasks for every test."""
