from django.urls import path

from . import views

urlpatterns = [
    path("account/vacation/", views.vacation, name="vacation"),
    path("account/vacation/<int:vacation_id>/cancel/", views.vacation_cancel,
         name="vacation_cancel"),
]
