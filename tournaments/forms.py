from datetime import timedelta

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .models import Tournament


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=100)
    format = forms.ChoiceField(choices=Tournament.FORMAT_CHOICES, initial=Tournament.SWISS)
    table_size = forms.TypedChoiceField(
        choices=[(3, "3"), (4, "4"), (5, "5")], coerce=int, initial=4,
        label="Players per table",
        help_text="Tables of 3 or 5 are used where the numbers need them.",
    )
    rounds = forms.IntegerField(min_value=1, max_value=20, initial=3, label="Rounds (Swiss)")
    advance_per_table = forms.IntegerField(
        min_value=1, max_value=4, initial=2, label="Players who go on from each table (elimination)"
    )
    time_control = forms.ChoiceField(
        choices=[
            ("live", "live (10 minutes)"), ("correspondence", "correspondence (3 days a move)"),
        ]
    )
    registration_closes = forms.DateTimeField(
        label="Registration closes (UTC)",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    starts_at = forms.DateTimeField(
        required=False, label="Starts at (UTC; empty: the organiser starts it)",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    min_players = forms.IntegerField(min_value=3, max_value=200, initial=3)
    max_players = forms.IntegerField(min_value=3, max_value=200, initial=40)
    # One rule with the lobby's: bots are rated like everyone, so they may sit at rated
    # tables.
    rated = forms.BooleanField(required=False,
                               label=_("Rated (bots that fill tables are rated too)"))
    allow_bots = forms.BooleanField(required=False, label=_("Fill short tables with bots"))
    bot_level = forms.ChoiceField(choices=[(b, b) for b in Tournament.BOT_LEVELS], initial="basic")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        soon = timezone.now() + timedelta(days=1)
        self.fields["registration_closes"].initial = soon.strftime("%Y-%m-%dT%H:%M")

    def service_kwargs(self) -> dict:
        data = dict(self.cleaned_data)
        kind = data.pop("time_control")
        if kind == "live":
            data["time_control"] = {"kind": "live", "minutes": 10}
        else:
            data["time_control"] = {"kind": "correspondence", "days": 3}
        return data
