from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext as _

from .names import (
    ASCII_FOLD,
    username_folded,
    username_mixes_lookalike_scripts,
    username_normalize,
)

BOT_NAME_PREFIX = "bot-"
GUEST_NAME_PREFIX = "guest-"


def _folded_column():
    """lower(username) with ASCII_FOLD applied, in the database (names already stored
    passed the script checks, so their ASCII is what may look alike)."""
    from django.db.models import Value
    from django.db.models.functions import Lower, Replace

    column = Lower("username")
    for plain, folded in ASCII_FOLD.items():
        column = Replace(column, Value(plain), Value(folded))
    return column


def username_lookalike_taken(username: str) -> bool:
    """Another account's name reads like this one (not merely the same name in another
    case: allauth says "taken" for that)."""
    folded = username_folded(username)
    return (get_user_model().objects.annotate(folded=_folded_column())
            .filter(folded=folded).exclude(username__iexact=username).exists())


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username, shallow=False):
        username = username_normalize(username)
        skeleton = username_folded(username)
        # "bot-…" names belong to the house bots; people must not pass for one.
        if skeleton.startswith(BOT_NAME_PREFIX):
            message = _("Usernames starting with “%(prefix)s” are for bots.")
            raise ValidationError(message % {"prefix": BOT_NAME_PREFIX})
        # "guest-…" names mark temporary accounts.
        if skeleton.startswith(GUEST_NAME_PREFIX):
            raise ValidationError(
                _("Usernames starting with “%(prefix)s” are for guests.")
                % {"prefix": GUEST_NAME_PREFIX})
        if username_mixes_lookalike_scripts(username):
            raise ValidationError(_("This name mixes look-alike letters of different "
                                    "alphabets: write it in one alphabet."))
        reserved = {username_folded(n) for n in settings.ACCOUNT_USERNAME_BLACKLIST}
        if skeleton in reserved:
            raise ValidationError(_("This name is reserved: choose another."))
        if not shallow and username_lookalike_taken(username):
            raise ValidationError(_("This name looks like another player's name."))
        return super().clean_username(username, shallow=shallow)

    def save_user(self, request, user, form, commit=True):
        # Mail reaches players with no request to ask: keep the language they signed up in.
        language = translation.get_language()
        if language in dict(settings.LANGUAGES):
            user.language = language
        return super().save_user(request, user, form, commit=commit)
