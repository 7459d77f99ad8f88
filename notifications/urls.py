from django.urls import path

from . import views

urlpatterns = [
    path("notifications/", views.notification_list, name="notifications"),
    path("notifications/resubscribe/", views.email_resubscribe, name="notifications_resubscribe"),
    path("notifications/unsubscribe/<str:token>/", views.unsubscribe,
         name="notifications_unsubscribe"),
]
