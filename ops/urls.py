from django.urls import path

from . import views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("staff/status/", views.status_page, name="staff_status"),
]
