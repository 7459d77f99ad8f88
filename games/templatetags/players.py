"""{{ user|player_name }} and {% bot_name level %}: one name per bot level everywhere
(games.models.BOT_NAMES), translated; people by their username."""

from django import template

from games import models

register = template.Library()


@register.filter
def player_name(user) -> str:
    return models.player_name(user)


@register.simple_tag
def bot_name(level: str) -> str:
    return models.bot_name(level)
