from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import ApiToken, User


@admin.register(User)
class BlazeUserAdmin(UserAdmin):
    fieldsets = UserAdmin.fieldsets + (
        ("Blaze", {"fields": ("is_bot", "is_guest", "timezone", "email_on_turn")}),
    )
    list_display = ("username", "email", "is_bot", "is_staff", "date_joined")
    list_filter = UserAdmin.list_filter + ("is_bot", "is_guest")

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if change and "is_active" in form.changed_data and not obj.is_active:
            from .services import user_deactivate

            user_deactivate(user=obj)  # its sockets close too


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "prefix", "created", "last_used", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("name", "user__username", "prefix")
    readonly_fields = ("key_hash", "prefix", "created", "last_used")
