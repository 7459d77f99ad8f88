"""`make run` shows each mail's links in a box (the verification link of a sign-up must be
seen, not lost among the log lines)."""

import sys
from pathlib import Path

import pytest
from django.core import mail
from django.urls import reverse

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from mail_watch import MailWatch, use_mail_files  # noqa: E402

from tests.web.test_make_run_settings import _settings  # noqa: E402

pytestmark = pytest.mark.django_db


def test_make_run_mails_to_files_unless_a_backend_is_chosen(tmp_path):
    env = {}
    folder = use_mail_files(env, tmp_path)
    assert folder == tmp_path / "mail" and folder.is_dir()
    # what the web process and the worker read from it: this very folder
    assert _settings("EMAIL_BACKEND", "EMAIL_FILE_PATH", EMAIL_URL=env["EMAIL_URL"]) == [
        "django.core.mail.backends.filebased.EmailBackend", str(folder.resolve())]
    chosen = {"EMAIL_URL": "smtp://mail.example:25"}
    assert use_mail_files(chosen, tmp_path) is None
    assert chosen == {"EMAIL_URL": "smtp://mail.example:25"}


def test_a_sign_ups_verification_link_is_shown_in_a_box(client, settings, tmp_path):
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path)
    watch = MailWatch(tmp_path)
    assert watch.new_mail() == []
    client.post(reverse("account_signup"), {
        "username": "fay", "email": "fay@example.com",
        "password1": "fiery-bird-42-feathers", "password2": "fiery-bird-42-feathers"})
    mail.get_connection().send_messages([mail.EmailMessage(
        "Ünïcode subject", "Long line " * 30 + "\nhttp://localhost:8000/games/7/",
        to=["ann@example.com"])])
    boxes = watch.new_mail()
    assert len(boxes) == 2
    assert "Mail to fay@example.com" in boxes[0]
    assert "/account/confirm-email/" in boxes[0]
    assert boxes[0].splitlines()[0].startswith("+--")
    assert "Ünïcode subject" in boxes[1] and "| http://localhost:8000/games/7/" in boxes[1]
    assert watch.new_mail() == []  # each mail once
