from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext as _

from .names import username_mixes_lookalike_scripts, username_normalize, username_skeleton

BOT_NAME_PREFIX = "bot-"
GUEST_NAME_PREFIX = "guest-"


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username, shallow=False):
        username = username_normalize(username)
        skeleton = username_skeleton(username)
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
        if not shallow and skeleton != username.casefold() and \
                get_user_model().objects.filter(username__iexact=skeleton).exists():
            raise ValidationError(_("This name looks like another player's name."))
        return super().clean_username(username, shallow=shallow)

    def save_user(self, request, user, form, commit=True):
        # Mail reaches players with no request to ask: keep the language they signed up in.
        language = translation.get_language()
        if language in dict(settings.LANGUAGES):
            user.language = language
        return super().save_user(request, user, form, commit=commit)
