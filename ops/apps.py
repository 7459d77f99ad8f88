from django.apps import AppConfig


class OpsConfig(AppConfig):
    """Operations: /healthz for load balancers, the staff status page, job run records."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "ops"

    def ready(self):
        from . import heartbeat, jobs

        jobs.connect()
        heartbeat.connect()
