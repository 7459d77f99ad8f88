"""Blocks, table mutes and follows (friends): one write each."""

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from games.models import Game
from lib.text import text_unstorable

from .models import Block, Follow, TableMute
from .refusals import Forbidden, NotFound, SocialError, no_such_player


def player_named(username: str):
    if not isinstance(username, str) or text_unstorable(username):
        raise no_such_player(str(username).encode("utf-8", "replace").decode())
    user = get_user_model().objects.filter(username=username, is_active=True,
                                           is_bot=False).first()
    if user is None:
        raise no_such_player(username)
    return user


def _not_self(user, other, sentence: str) -> None:
    if user.pk == other.pk:
        raise SocialError(sentence)


def block_add(*, user, username: str) -> Block:
    """Block a player: they cannot join your waiting tables, invite you or follow you,
    and you no longer hear their talk. Blocking ends their follow of you."""
    other = player_named(username)
    _not_self(user, other, _("you cannot block yourself"))
    with transaction.atomic():
        block, _created = Block.objects.get_or_create(blocker=user, blocked=other)
        Follow.objects.filter(follower=other, followed=user).delete()
    return block


def block_remove(*, user, username: str) -> None:
    other = player_named(username)
    Block.objects.filter(blocker=user, blocked=other).delete()


def follow_add(*, user, username: str) -> Follow:
    other = player_named(username)
    _not_self(user, other, _("you cannot follow yourself"))
    if Block.objects.filter(blocker=other, blocked=user).exists():
        raise Forbidden(_("%(name)s does not accept followers from you") % {"name": username})
    follow, _created = Follow.objects.get_or_create(follower=user, followed=other)
    return follow


def follow_remove(*, user, username: str) -> None:
    other = player_named(username)
    Follow.objects.filter(follower=user, followed=other).delete()


def table_mute(*, user, game_id: int, username: str, muted: bool = True) -> None:
    """Stop (or start again) hearing one player's talk at one table."""
    other = player_named(username)
    _not_self(user, other, _("you cannot mute yourself"))
    if not Game.objects.filter(pk=game_id).exists():
        raise NotFound(_("no such game"))
    if muted:
        TableMute.objects.get_or_create(game_id=game_id, user=user, muted=other)
    else:
        TableMute.objects.filter(game_id=game_id, user=user, muted=other).delete()
