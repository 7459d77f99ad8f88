"""Two guests keeping their accounts under one name at once, on separate PostgreSQL
connections: one gets it, the other a clean refusal, whatever the letters' case."""

import threading

import pytest
from django.db import connection, connections
from django.urls import reverse

from accounts.models import User
from accounts.services import UsernameTaken, guest_claim, guest_create

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="two connections need PostgreSQL"
)


def _claim_at_once(guests, names):
    barrier, results = threading.Barrier(len(guests)), {}

    def run(k, guest, name):
        try:
            barrier.wait(60)
            results[k] = guest_claim(user=guest, username=name, email=f"{k}{name}@example.com",
                                     password="fiery-bird-42-feathers")
        except Exception as e:
            results[k] = e
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(k, guest, name))
               for k, (guest, name) in enumerate(zip(guests, names))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("names", [("zed", "zed"), ("Zed", "zED")], ids=["same", "case"])
def test_two_guests_claiming_one_name_at_once_get_one_account(names, fast_passwords):
    guests = [guest_create(ip=f"192.0.2.{k}") for k in (1, 2)]
    results = _claim_at_once(guests, names)
    refused = [r for r in results.values() if isinstance(r, Exception)]
    assert len(results) == 2 and len(refused) == 1, results
    assert isinstance(refused[0], UsernameTaken)
    assert User.objects.filter(username__iexact="zed").count() == 1
    assert User.objects.filter(is_guest=True).count() == 1  # the other is still a guest


@pytest.mark.django_db
def test_a_name_taken_in_another_case_is_refused_with_a_sentence(client, ann, fast_passwords):
    guest = guest_create(ip="192.0.2.9")
    client.force_login(guest)
    response = client.post(reverse("guest_claim"), {
        "username": "ANN", "email": "other@example.com",
        "password1": "fiery-bird-42-feathers", "password2": "fiery-bird-42-feathers"})
    assert response.status_code == 200
    assert User.objects.get(pk=guest.pk).is_guest
