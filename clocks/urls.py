from django.urls import path

from . import views

urlpatterns = [
    path("account/calendar/", views.calendar_page, name="calendar"),
    path("calendar/<str:secret>.ics", views.calendar_feed, name="calendar_feed"),
    path("account/vacation/", views.vacation, name="vacation"),
    path("account/vacation/<int:vacation_id>/cancel/", views.vacation_cancel,
         name="vacation_cancel"),
]
