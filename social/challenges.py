"""Invitations to a new table: named players (and bots for the other seats) with the
table's settings; the table starts once every invited player has accepted."""

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import events
from games import services as games
from games.errors import GameError
from games.models import Seat

from .models import Block, Challenge, Invitation
from .refusals import Forbidden, NotFound, SocialError
from .relations import player_named

INVITATION = events.INVITATION  # the notice kind


def _page(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def challenge_create(*, sender, usernames, players, bots=(), rated: bool = False,
                     private: bool = True, time_control=None) -> Challenge:
    """Invite players to a new table; each hears it through the one notify path."""
    usernames = list(dict.fromkeys(usernames or []))
    bots = list(bots or [])
    if not usernames:
        raise SocialError(_("invite at least one player (usernames)"))
    if type(players) is not int or not 3 <= players <= 5:
        raise SocialError(_("players must be 3, 4 or 5"))
    if 1 + len(usernames) + len(bots) != players:
        raise SocialError(_("you, the invited players and the bots must fill the %(n)d seats")
                          % {"n": players})
    for level in bots:
        if level not in Seat.BOT_LEVELS:
            raise SocialError(_("unknown bot level %(level)r: use one of random, basic, strong")
                              % {"level": level})
    if rated and sender.is_guest:
        raise SocialError(_("guests play unrated games: sign up to play rated ones"))
    # the table's own rule, checked now: a challenge no one could start is refused at once
    if time_control is not None:  # none: the site's default, chosen when the table opens
        time_control = games.time_control_cleaned(time_control)
    invited = [player_named(name) for name in usernames]
    if any(u.pk == sender.pk for u in invited):
        raise SocialError(_("you cannot invite yourself"))
    blocking = Block.objects.filter(blocker__in=invited, blocked=sender).select_related(
        "blocker").first()
    if blocking is not None:
        raise Forbidden(_("%(name)s does not accept invitations from you")
                        % {"name": blocking.blocker.username})
    if rated and any(u.is_guest for u in invited):
        raise SocialError(_("guests play unrated games: invite them to an unrated table"))
    with transaction.atomic():
        challenge = Challenge.objects.create(
            sender=sender, players=players, bots=bots, rated=bool(rated),
            private=bool(private), time_control=time_control,
            expires=timezone.now() + timedelta(minutes=settings.SOCIAL_CHALLENGE_MINUTES))
        for user in invited:
            Invitation.objects.create(challenge=challenge, user=user)
            events.player_notice.send(
                user=user, game=None, kind=INVITATION, key=f"invitation:{challenge.pk}:{user.pk}",
                subject=gettext_lazy("%(name)s invites you to a table"),
                text=gettext_lazy("%(name)s invites you to a table of %(players)d. Accept or "
                                  "decline: %(page)s"),
                params={"name": sender.username, "players": players,
                        "page": _page(reverse("friends"))})
    return challenge


def _locked(challenge_id: int) -> Challenge:
    challenge = Challenge.objects.select_for_update().filter(pk=challenge_id).first()
    if challenge is None:
        raise NotFound(_("no such invitation"))
    return challenge


def _still_open(challenge: Challenge) -> None:
    status = challenge.status
    if status == Challenge.OPEN and challenge.expires <= timezone.now():
        status = Challenge.EXPIRED  # the periodic sweep marks it so
    if status != Challenge.OPEN:
        raise Forbidden(_("this invitation is %(status)s") % {"status": _status_word(status)})


def _status_word(status: str) -> str:
    return {Challenge.STARTED: _("started already"), Challenge.DECLINED: _("declined"),
            Challenge.EXPIRED: _("expired"), Challenge.CANCELLED: _("cancelled")}.get(status,
                                                                                    status)


def challenge_answer(*, user, challenge_id: int, accept: bool) -> Challenge:
    """Accept or decline; the last acceptance starts the table (its seats in order:
    the sender, the invited, the bots) and everyone hears where it is."""
    with transaction.atomic():
        challenge = _locked(challenge_id)
        invitation = challenge.invitations.filter(user=user).first()
        if invitation is None:
            raise NotFound(_("no such invitation"))
        _still_open(challenge)
        invitation.answer = Invitation.ACCEPTED if accept else Invitation.DECLINED
        invitation.answered = timezone.now()
        invitation.save(update_fields=["answer", "answered"])
        if not accept:
            challenge.status = Challenge.DECLINED
            challenge.save(update_fields=["status"])
            _tell(challenge.sender, challenge, "declined",
                  gettext_lazy("%(name)s declined your invitation."), {"name": user.username})
        elif not challenge.invitations.exclude(answer=Invitation.ACCEPTED).exists():
            _start(challenge)
    return challenge


def _start(challenge: Challenge) -> None:
    """Holding the challenge row lock: the table, with everyone seated, started."""
    try:
        game = games.game_create(creator=challenge.sender, players=challenge.players,
                                 time_control=challenge.time_control, rated=challenge.rated,
                                 private=challenge.private)
        for invitation in challenge.invitations.select_related("user"):
            games.game_join(game_id=game.pk, user=invitation.user,
                            invite_code=game.invite_code)
        for level in challenge.bots:
            games.game_add_bot(game_id=game.pk, user=challenge.sender, level=level)
    except GameError as e:
        raise Forbidden(_("the table could not start: %(why)s") % {"why": e.message}) from None
    challenge.status = Challenge.STARTED
    challenge.game = game
    challenge.save(update_fields=["status", "game"])
    people = [challenge.sender] + [i.user for i in challenge.invitations.select_related("user")]
    for person in people:
        _tell(person, challenge, "started",
              gettext_lazy("Your table is ready: %(page)s"),
              {"page": _page(reverse("game_table", args=[game.pk]))}, game=game)


def _tell(user, challenge: Challenge, what: str, text, params: dict, game=None) -> None:
    events.player_notice.send(
        user=user, game=game, kind=INVITATION, key=f"invitation_{what}:{challenge.pk}:{user.pk}",
        subject=None, text=text, params=params)


def challenge_cancel(*, user, challenge_id: int) -> Challenge:
    with transaction.atomic():
        challenge = _locked(challenge_id)
        if challenge.sender_id != user.pk:
            raise NotFound(_("no such invitation"))
        _still_open(challenge)
        challenge.status = Challenge.CANCELLED
        challenge.save(update_fields=["status"])
    return challenge


def challenges_expire(now=None) -> int:
    """Mark the open invitations past their time as expired (periodic; idempotent)."""
    now = now or timezone.now()
    return Challenge.objects.filter(status=Challenge.OPEN, expires__lte=now).update(
        status=Challenge.EXPIRED)


def challenge_summary(challenge: Challenge) -> dict:
    return {
        "id": challenge.pk, "from": challenge.sender.username, "players": challenge.players,
        "bots": challenge.bots, "rated": challenge.rated, "private": challenge.private,
        "time_control": challenge.time_control, "status": challenge.status,
        "expires": challenge.expires.isoformat(),
        "invited": [{"name": i.user.username, "answer": i.answer}
                    for i in challenge.invitations.all()],
        "game": challenge.game_id,
    }


def challenges_of(user) -> list[Challenge]:
    """Open invitations the user sent or received, newest first (three queries)."""
    return list(
        Challenge.objects.filter(status=Challenge.OPEN, expires__gt=timezone.now())
        .filter(Q(sender=user) | Q(invitations__user=user)).distinct().select_related("sender")
        .prefetch_related("invitations__user").order_by("-created")[:50])
