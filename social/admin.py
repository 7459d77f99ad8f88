from django.contrib import admin

from .models import Block, Challenge, ChatMessage, Follow, Report, TalkSettings


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("created", "reporter", "reported", "reason", "action", "handled_at")
    list_filter = ("action",)
    raw_id_fields = ("reporter", "reported", "message", "handled_by")
    search_fields = ("reported__username", "reporter__username", "reason")


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("game", "seq", "sender", "channel", "phrase", "text", "hidden", "reviewed")
    list_filter = ("hidden", "reviewed", "channel")
    raw_id_fields = ("game", "sender")
    search_fields = ("sender__username", "text")


@admin.register(TalkSettings)
class TalkSettingsAdmin(admin.ModelAdmin):
    list_display = ("user", "free_text", "muted_until", "warnings")
    raw_id_fields = ("user",)


@admin.register(Block)
class BlockAdmin(admin.ModelAdmin):
    list_display = ("blocker", "blocked", "created")
    raw_id_fields = ("blocker", "blocked")


@admin.register(Follow)
class FollowAdmin(admin.ModelAdmin):
    list_display = ("follower", "followed", "created")
    raw_id_fields = ("follower", "followed")


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    list_display = ("sender", "players", "status", "created", "expires", "game")
    list_filter = ("status",)
    raw_id_fields = ("sender", "game")
