from django.db import models


class JobRun(models.Model):
    """The last run of one periodic job (a beat entry's task), written by the worker."""

    task = models.CharField(max_length=200, primary_key=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    worker = models.CharField(max_length=200, blank=True, default="")
    ok = models.BooleanField(default=True)  # the last finished run succeeded
    runs = models.PositiveBigIntegerField(default=0)

    def __str__(self):
        return f"{self.task} last finished {self.finished}"


class Heartbeat(models.Model):
    """The last sign of life of a background part: "beat" (it sent the heartbeat task)
    and "worker" (one ran it). /healthz reads them (ops.heartbeat)."""

    part = models.CharField(max_length=20, primary_key=True)
    at = models.DateTimeField()

    def __str__(self):
        return f"{self.part} alive at {self.at}"
