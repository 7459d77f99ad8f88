import os

from celery import Celery
from kombu import Exchange, Queue

from lib.queues import queue_names

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "blaze_site.settings")

app = Celery("blaze_site")
# Every CELERY_* Django setting configures Celery (CELERY_BROKER_URL -> broker_url).
app.config_from_object("django.conf:settings", namespace="CELERY")


@app.on_after_configure.connect
def _declare_queues(sender, source, **kwargs):
    """Each queue its own exchange and routing key: a bare Queue(name) would bind every
    queue to the default routing key, and a task sent to one would land in all of them.
    (Here, once Django's settings are read, not in them: kombu is for processes that send
    or run tasks, not for every command.)"""
    source.task_queues = [Queue(name, Exchange(name), routing_key=name)
                          for name in queue_names(source.task_default_queue)]


app.autodiscover_tasks()
