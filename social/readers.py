"""Who reads talk how: free text on or off, blocks and table mutes (selectors)."""

from django.db.models import Q
from django.utils import timezone

from .models import Block, TableMute, TalkSettings


def free_text_default(user) -> bool:
    return not user.is_guest  # guests see phrases only until they turn free text on


def free_text_on(user, row: TalkSettings | None = None) -> bool:
    if row is None:
        row = TalkSettings.objects.filter(user=user).first()
    if row is not None and row.free_text is not None:
        return row.free_text
    return free_text_default(user)


def muted_until(user):
    """When a site-wide mute by staff ends, if the user is muted now."""
    row = TalkSettings.objects.filter(user=user, muted_until__gt=timezone.now()).first()
    return None if row is None else row.muted_until


def not_hearing(sender_id: int, game_id: int) -> set[int]:
    """Users who must not get this sender's talk at this game: those who blocked the
    sender, and those who muted them at this table (two queries)."""
    blockers = set(Block.objects.filter(blocked_id=sender_id).values_list("blocker_id", flat=True))
    muters = TableMute.objects.filter(game_id=game_id, muted_id=sender_id)
    return blockers | set(muters.values_list("user_id", flat=True))


def unheard_by(user_id: int, game_id: int) -> set[int]:
    """The senders this user does not hear at this game (blocked, or muted here)."""
    blocked = set(Block.objects.filter(blocker_id=user_id).values_list("blocked_id", flat=True))
    muted = TableMute.objects.filter(game_id=game_id, user_id=user_id)
    return blocked | set(muted.values_list("muted_id", flat=True))


def is_blocked(*, blocker_id: int, blocked_id: int) -> bool:
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).exists()


def free_text_exceptions() -> set[int]:
    """Users whose free-text choice differs from the default of their kind of account."""
    differs = (Q(free_text=False, user__is_guest=False)
               | Q(free_text=True, user__is_guest=True))
    return set(TalkSettings.objects.filter(differs).values_list("user_id", flat=True))
