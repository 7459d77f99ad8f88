"""The parts social adds to games' pages (registered as games.events template parts)."""

from django import template
from django.utils.translation import get_language

from games.models import Game

from ..phrases import MAX_TEXT, phrases_in
from ..readers import free_text_on
from ..selectors import friends_live_game_ids

register = template.Library()


@register.inclusion_tag("social/_talk_panel.html", takes_context=True)
def talk_panel(context, game, you):
    request = context["request"]
    user = request.user if request.user.is_authenticated else None
    return {
        "game": game, "you": you, "signed_in": user is not None,
        "phrases": phrases_in(get_language()), "max_text": MAX_TEXT,
        "free_text": user is not None and free_text_on(user),
        "players_apart": game.status in (Game.WAITING, Game.PLAYING),
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("social/_friends_live.html", takes_context=True)
def friends_live(context):
    request = context["request"]
    if not request.user.is_authenticated:
        return {"games": []}
    ids = friends_live_game_ids(request.user)
    games = Game.objects.filter(pk__in=ids).prefetch_related("seats__user").order_by("-started")
    return {"games": [{"id": g.pk, "players": [s.display_name for s in g.seats.all()]}
                      for g in games]}
