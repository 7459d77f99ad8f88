"""The notice settings page's form: it only collects what the player typed; the one
service (preferences.notice_settings_set) checks it, for the page and the API alike."""

import zoneinfo

from django import forms
from django.utils.translation import gettext_lazy as _

from . import preferences


def _timezone_choices():
    return [(name, name.replace("_", " ")) for name in sorted(zoneinfo.available_timezones())]


class NoticeSettingsForm(forms.Form):
    quiet_start = forms.CharField(label=_("Quiet from"), required=False, max_length=5,
                                  widget=forms.TimeInput(attrs={"type": "time"}))
    quiet_end = forms.CharField(label=_("until"), required=False, max_length=5,
                                widget=forms.TimeInput(attrs={"type": "time"}))
    timezone = forms.ChoiceField(label=_("Time zone"), choices=_timezone_choices)
    reminder_hours = forms.CharField(
        label=_("Remind me this many hours before a deadline"), required=False,
        max_length=40, help_text=_("Up to four, e.g. “24, 2”. Empty: once, when a fifth of "
                                   "the time is left."))

    def __init__(self, *args, user, **kwargs):
        initial = {"quiet_start": user.quiet_start.strftime("%H:%M") if user.quiet_start
                   else "",
                   "quiet_end": user.quiet_end.strftime("%H:%M") if user.quiet_end else "",
                   "timezone": user.timezone,
                   "reminder_hours": ", ".join(str(h) for h in user.reminder_hours or [])}
        channels = preferences.channels_of(user)
        super().__init__(*args, initial=initial, **kwargs)
        choices = [(c, preferences.CHANNEL_LABELS[c]) for c in preferences.CHANNELS]
        for kind, label in preferences.KIND_LABELS.items():
            self.fields[f"channel_{kind}"] = forms.ChoiceField(
                label=label, choices=choices, initial=channels[kind])

    def channel_fields(self):
        return [self[f"channel_{kind}"] for kind in preferences.CHOOSABLE_KINDS]

    def parts(self) -> dict:
        """What to hand to notice_settings_set (call after is_valid)."""
        data = self.cleaned_data
        hours = [h for h in data["reminder_hours"].replace(",", " ").split() if h]
        return {"channels": {kind: data[f"channel_{kind}"]
                             for kind in preferences.CHOOSABLE_KINDS},
                "quiet_start": data["quiet_start"].strip() or None,
                "quiet_end": data["quiet_end"].strip() or None,
                "timezone": data["timezone"], "reminder_hours": hours}
