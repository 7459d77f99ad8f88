"""Reports for staff, and what staff do about them."""

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import events
from lib.text import text_unstorable

from .models import ChatMessage, Report, TalkSettings
from .refusals import NotFound, SocialError
from .relations import player_named
from .talk import HIDE_AFTER_REPORTS

MAX_REASON = 500


def report_create(*, user, reason: str, username: str | None = None, game_id: int | None = None,
                  seq: int | None = None) -> Report:
    """Report a player, or one message (game id and seq) of theirs. A message reported by
    HIDE_AFTER_REPORTS players is hidden until staff review it."""
    if text_unstorable([reason, username]):
        raise SocialError(_("the report holds a NUL or a broken character: remove it"))
    reason = (reason or "").strip() if isinstance(reason, str) else ""
    if not reason:
        raise SocialError(_("say why you report: reason is empty"))
    if len(reason) > MAX_REASON:
        raise SocialError(_("reason may be at most %(n)d characters") % {"n": MAX_REASON})
    message = None
    if game_id is not None or seq is not None:
        message = ChatMessage.objects.filter(game_id=game_id, seq=seq).first()
        if message is None:
            raise NotFound(_("no such message"))
        reported = message.sender
    elif username:
        reported = player_named(username)
    else:
        raise SocialError(_("name the player (username) or the message (game and seq)"))
    if reported.pk == user.pk:
        raise SocialError(_("you cannot report yourself"))
    with transaction.atomic():
        if message is not None:
            report, _created = Report.objects.get_or_create(
                reporter=user, message=message, defaults={"reported": reported,
                                                          "reason": reason})
            reporters = Report.objects.filter(message=message).values("reporter").distinct()
            if not message.reviewed and reporters.count() >= HIDE_AFTER_REPORTS:
                ChatMessage.objects.filter(pk=message.pk).update(hidden=True)
        else:
            report = Report.objects.create(reporter=user, reported=reported, reason=reason)
    return report


def report_act(*, staff, report_id: int, action: str, hours: int = 24) -> Report:
    """Staff act on a report: warn the player, mute their talk site-wide for `hours`,
    deactivate the account, or dismiss it. A reported message is reviewed then: shown
    again on dismissal, kept hidden otherwise."""
    if action not in (Report.WARN, Report.MUTE, Report.DEACTIVATE, Report.DISMISS):
        raise SocialError(_("unknown action %(action)r") % {"action": action})
    with transaction.atomic():
        report = Report.objects.select_for_update().select_related("reported").filter(
            pk=report_id).first()
        if report is None:
            raise NotFound(_("no such report"))
        user = report.reported
        row, _created = TalkSettings.objects.get_or_create(user=user)
        if action == Report.WARN:
            row.warnings += 1
            row.save(update_fields=["warnings"])
            events.player_notice.send(
                user=user, game=None, kind=events.WARNING, key=f"warning:{report.pk}",
                subject=gettext_lazy("A warning from Blaze's staff"),
                text=gettext_lazy("Staff read a report about your talk or play. Please keep "
                                  "to the site's rules: another report may end in a mute."),
                params={})
        elif action == Report.MUTE:
            row.muted_until = timezone.now() + timedelta(hours=hours)
            row.save(update_fields=["muted_until"])
        elif action == Report.DEACTIVATE:
            type(user).objects.filter(pk=user.pk).update(is_active=False)
        if report.message_id is not None:
            ChatMessage.objects.filter(pk=report.message_id).update(
                reviewed=True, hidden=action != Report.DISMISS)
        # every open report about the same thing is settled with it
        same = Report.objects.filter(handled_at__isnull=True, reported=user)
        if report.message_id is not None:
            same = same.filter(message_id=report.message_id)
        else:
            same = same.filter(pk=report.pk)
        same.update(handled_at=timezone.now(), handled_by=staff, action=action)
    report.refresh_from_db()
    return report
