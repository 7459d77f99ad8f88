from django.urls import path

from . import views

urlpatterns = [
    path("notifications/", views.notification_list, name="notifications"),
    path("notifications/resubscribe/", views.email_resubscribe, name="notifications_resubscribe"),
    path("notifications/unsubscribe/<str:token>/", views.unsubscribe,
         name="notifications_unsubscribe"),
    path("account/vacation/", views.vacation, name="vacation"),
    path("account/vacation/<int:vacation_id>/cancel/", views.vacation_cancel,
         name="vacation_cancel"),
]
