from datetime import timedelta

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import BOT_NAMES
from games.time_controls import preset

from .models import Tournament

BOT_LEVEL_CHOICES = list(BOT_NAMES.items())  # one name per level (games.models)


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100)
    format = forms.ChoiceField(label=_("Format"), choices=Tournament.FORMAT_CHOICES,
                               initial=Tournament.SWISS)
    table_size = forms.TypedChoiceField(
        choices=[(3, "3"), (4, "4"), (5, "5")], coerce=int, initial=4,
        label=_("Players per table"),
        help_text=_("Tables of 3 or 5 are used where the numbers need them."),
    )
    rounds = forms.IntegerField(min_value=1, max_value=20, initial=3,
                                label=_("Rounds (Swiss)"))
    advance_per_table = forms.IntegerField(
        min_value=1, max_value=4, initial=2,
        label=_("Players who go on from each table (elimination)"),
    )
    time_control = forms.ChoiceField(
        label=_("Time control"),
        choices=[
            ("live", _("live (10 minutes)")),
            ("correspondence", _("correspondence (3 days a move)")),
        ],
    )
    registration_closes = forms.DateTimeField(
        label=_("Registration closes (UTC)"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    starts_at = forms.DateTimeField(
        required=False, label=_("Starts at (UTC; empty: the organiser starts it)"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    # empty: 3, or 2 when bots fill short tables (tournaments.services)
    min_players = forms.IntegerField(
        label=_("Minimum players (empty: 3, or 2 with bots)"), min_value=2, max_value=200,
        required=False)
    max_players = forms.IntegerField(label=_("Maximum players"), min_value=3, max_value=200,
                                     initial=40)
    # One rule with the lobby's: bots are rated like everyone, so they may sit at rated
    # tables.
    rated = forms.BooleanField(label=_("Rated (bots that fill tables are rated too)"),
                               required=False)
    allow_bots = forms.BooleanField(required=False, label=_("Fill short tables with bots"))
    bot_level = forms.ChoiceField(label=_("Bot level"), choices=BOT_LEVEL_CHOICES,
                                  initial="basic")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        soon = timezone.now() + timedelta(days=1)
        self.fields["registration_closes"].initial = soon.strftime("%Y-%m-%dT%H:%M")

    def service_kwargs(self) -> dict:
        data = dict(self.cleaned_data)
        kind = data.pop("time_control")
        data["time_control"] = preset(kind)
        return data
