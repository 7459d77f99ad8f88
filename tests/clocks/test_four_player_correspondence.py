"""Issue 5, done when: a four-player correspondence game of two people and two bots runs to
the end with a real Celery worker; the people are told in the way each chose, one is
warned and then timed out, and the mail, the notifications and the clocks agree.

The bots' moves, every email and the digest come from the worker process. Time-machine
moves the clock in this process only (a worker cannot see it), so the sweeper that the
moved clock matters to runs here, exactly as beat's `clocks_sweep` would run it; what the
sweep queues (the bots' replies, the emails) still goes through the worker.
"""

import random
from datetime import timedelta
from email import message_from_string, policy
from email.message import Message
from pathlib import Path

import pytest
import time_machine
from django.utils import timezone

from clocks.models import SeatClock
from clocks.tasks import clocks_sweep
from games import services
from games.bot_moves import bot_choose_move
from games.engine import view
from games.models import Game, Move
from games.selectors import game_state
from notifications.models import Notification
from notifications.tasks import send_digests
from tests.clocks.test_worker import (  # noqa: F401 (worker: a fixture)
    _finishing_deal,
    _wait_for,
    pytestmark,
    worker,
)
from tests.conftest import make_user

CORR1 = {"kind": "correspondence", "days": 1}
SITE = "https://blaze.example"
SEPARATOR = "\n" + "-" * 79 + "\n"  # between messages in the file-based backend's files


@pytest.fixture
def outbox(tmp_path) -> Path:
    return tmp_path / "mail"


@pytest.fixture
def worker_env(outbox):
    # The worker writes its mail to files; any hour is a digest hour.
    return {"EMAIL_URL": f"filemail:///{outbox}", "SITE_URL": SITE, "DIGEST_HOUR": "0"}


def _sent_mail(outbox: Path) -> list[Message]:
    if not outbox.exists():
        return []
    out = []
    for path in sorted(outbox.iterdir()):
        # only messages the worker has finished writing: each is followed by a separator
        for chunk in path.read_text().split(SEPARATOR)[:-1]:
            if chunk.strip():
                out.append(message_from_string(chunk, policy=policy.default))
    return out


def _body(message) -> str:
    return message.get_payload(decode=True).decode()


def _waiting_people(game, seats) -> list[int]:
    return [s for s in game.waiting_on if s in seats]


@pytest.mark.usefixtures("worker")
def test_two_people_and_two_bots_play_a_correspondence_game_to_the_end(
        outbox, monkeypatch):
    ann = make_user("ann", email_on_turn="immediate", timezone="Europe/Berlin")
    bob = make_user("bob", email_on_turn="digest", timezone="America/New_York")
    # A deal the basic policy plays to the end (some deals circle for ever), used at start.
    deal = _finishing_deal(4)
    monkeypatch.setattr(services, "deal_game", lambda players, rng: deal)
    game = services.game_create(creator=ann, players=4, bots=["basic", "basic"],
                                time_control=CORR1)
    services.game_join(game_id=game.pk, user=bob)  # full: the game starts
    people = {s.index: s.user for s in game.seats.exclude(user=None).select_related("user")}
    ann_seat = next(i for i, u in people.items() if u == ann)
    rng = random.Random(5)
    timed_out = digested = False
    person_moves = 0

    def person_to_move():
        g = Game.objects.get(pk=game.pk)
        return g.status != Game.PLAYING or bool(_waiting_people(g, people))

    for _ in range(400):  # person moves; a finishing deal needs far fewer
        assert _wait_for(person_to_move, timeout=20), "the bots stopped moving"
        game.refresh_from_db()
        if game.status != Game.PLAYING:
            break
        # ann chose immediate mail: her "your turn" is out before she moves.
        key = f"your_turn:{game.pk}:{ann_seat}:{game.seq}"
        if Notification.objects.filter(key=key).exists():
            assert _wait_for(lambda k=key: Notification.objects.get(key=k).emailed,
                                 timeout=10)
        if not digested and any(people[s] == bob for s in _waiting_people(game, people)):
            send_digests.delay()  # beat's hourly job, run by the worker while bob is due
            assert _wait_for(lambda: Notification.objects.filter(user=bob, kind="digest")
                             .exists())
            digested = True
        if not timed_out and game.waiting_on == [ann_seat] and person_moves >= 4:
            # ann lets her day run: warned at a fifth of it left, then timed out.
            now = timezone.now()
            with time_machine.travel(now + timedelta(hours=20)):
                assert clocks_sweep() == 0
            assert _wait_for(lambda: Notification.objects.filter(
                user=ann, kind="almost_out", emailed=True).exists())
            with time_machine.travel(now + timedelta(hours=25)):
                assert clocks_sweep() == 1  # the built-in bot moved for ann
            timed_out = True
            continue
        seat = _waiting_people(game, people)[0]
        move = bot_choose_move(view(game_state(game), seat), seat, "basic", rng)
        try:
            services.move_play(game_id=game.pk, user=people[seat], seq=game.seq, move=move)
        except services.StaleSeq:
            continue  # a bot bet at the same moment: look again
        person_moves += 1
    game.refresh_from_db()
    assert game.status == Game.FINISHED, f"stuck at seq {game.seq} ({game.status})"
    assert timed_out and digested
    bot_seats = set(range(4)) - set(people)
    assert Move.objects.filter(game=game, seat__in=bot_seats).count() > 10  # the worker's
    assert sorted(game.result["ranking"]) == [0, 1, 2, 3]
    assert not SeatClock.objects.filter(game=game, running_since__isnull=False).exists()
    assert SeatClock.objects.get(game=game, seat=ann_seat).timeouts == 1

    # Every notification meant for mail has gone out before we read the mail: a
    # notification is claimed (emailed) before its mail is written, so wait for the mail.
    assert _wait_for(lambda: Notification.objects.filter(kind="game_over", emailed=True)
                     .count() == 2)
    over = f"[Blaze] Game {game.pk} is over"
    assert _wait_for(lambda: [m["Subject"] for m in _sent_mail(outbox)].count(over) == 2)
    mail = _sent_mail(outbox)
    link = f"{SITE}/games/{game.pk}/"
    for message in mail:
        assert message["List-Unsubscribe"].strip().startswith(f"<{SITE}/notifications/unsubscribe/")
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert link in _body(message)

    def subjects(user):
        return sorted(m["Subject"] for m in mail if m["To"] == user.email)

    # One live notice per game and kind (updated each turn), one mail per turn.
    [turn] = Notification.objects.filter(user=ann, kind="your_turn")
    assert turn.emailed
    turn_mails = subjects(ann).count(f"[Blaze] Your turn in game {game.pk}")
    assert turn_mails >= 2
    assert subjects(ann) == sorted(
        [f"[Blaze] Your turn in game {game.pk}"] * turn_mails
        + [f"[Blaze] Almost out of time in game {game.pk}",
           f"[Blaze] Your time ran out in game {game.pk}",
           f"[Blaze] Game {game.pk} is over"]
    )
    # bob chose the digest: his turns are notifications only, and one digest lists the game.
    assert Notification.objects.filter(user=bob, kind="your_turn").exists()
    assert not Notification.objects.filter(user=bob, kind="your_turn", emailed=True)
    assert subjects(bob) == sorted(["[Blaze] 1 game waiting on you",
                                    f"[Blaze] Game {game.pk} is over"])
    digest = next(m for m in mail if m["Subject"] == "[Blaze] 1 game waiting on you")
    assert f"- Game {game.pk}: {link}" in _body(digest)
    # The notices mirror the mail: one live notice for each kind of message, mailed.
    for user in (ann, bob):
        emailed = Notification.objects.filter(user=user, emailed=True)
        assert emailed.count() == len(set(subjects(user)))
    assert not Notification.objects.filter(kind__in=["almost_out", "timeout", "game_over"],
                                           emailed=False).exists()
