"""How social reacts to games (connected in apps.py)."""

from django.utils.translation import gettext as _

from games import events

from .models import Block


def join_refusal(game, user) -> str | None:
    """Nobody sits down at a waiting table where a player blocked them."""
    seated = game.seats.filter(user__isnull=False).values("user_id")
    if Block.objects.filter(blocker__in=seated, blocked=user).exists():
        return _("you cannot join this table: a player there has blocked you")
    return None


def blocked_pairs(user_ids) -> list[tuple[int, int]]:
    """Pairs of these users where one blocked the other: seated apart where avoidable."""
    return list(Block.objects.filter(blocker__in=user_ids, blocked__in=user_ids)
                .values_list("blocker_id", "blocked_id"))


def connect() -> None:
    events.join_check_register("social.blocks", join_refusal)
    events.apart_register("social.blocks", blocked_pairs)
    events.template_part_register("table", "social.talk", "social/_table_talk.html")
    events.template_part_register("live_now", "social.friends", "social/_live_now_friends.html")
