from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import Seat

BOT_CHOICES = [("", _("an invited player"))] + [(b, b) for b in Seat.BOT_LEVELS]


class NameForm(forms.Form):
    username = forms.CharField(label=_("Player"), max_length=150)


class InviteForm(forms.Form):
    usernames = forms.CharField(label=_("Players to invite (names, separated by commas)"),
                                max_length=700)
    players = forms.TypedChoiceField(label=_("Table size"), coerce=int, initial=3,
                                     choices=[(3, "3"), (4, "4"), (5, "5")])
    bot_level = forms.ChoiceField(label=_("Bots for the other seats"), initial="basic",
                                  choices=[(b, b) for b in Seat.BOT_LEVELS])

    def names(self) -> list[str]:
        return [n.strip() for n in self.cleaned_data["usernames"].split(",") if n.strip()]


class ActForm(forms.Form):
    action = forms.ChoiceField(choices=[("warn", "warn"), ("mute", "mute"),
                                        ("deactivate", "deactivate"), ("dismiss", "dismiss")])
    hours = forms.IntegerField(min_value=1, max_value=24 * 365, initial=24, required=False)
