from django.urls import path

from . import views

urlpatterns = [
    path("manifest.webmanifest", views.app_manifest, name="app_manifest"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("offline/", views.offline, name="offline"),
    path("notifications/", views.notification_list, name="notifications"),
    path("notifications/settings/", views.notice_settings, name="notice_settings"),
    path("notifications/<int:notification_id>/read/", views.notification_read,
         name="notification_read"),
    path("notifications/resubscribe/", views.email_resubscribe, name="notifications_resubscribe"),
    path("notifications/unsubscribe/<str:token>/", views.unsubscribe,
         name="notifications_unsubscribe"),
]
