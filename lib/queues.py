"""Celery queues by kind, named after CELERY_TASK_DEFAULT_QUEUE (no Django here).

A burst of one kind (say, fifty bots thinking) never delays another (a live clock running
out, a password-reset mail). Every name starts with the prefix, so checkouts or sites that
share one Redis never take each other's tasks.
"""

BOTS, CLOCKS, MAIL = "bots", "clocks", "mail"

# Task name -> kind; tasks not listed (ratings, tournament rounds) go to the prefix itself.
TASK_KINDS = {
    "games.tasks.bot_move": BOTS,
    "games.tasks.review_work": BOTS,  # queued at low priority (games.reviews)
    "games.tasks.bots_watchdog": CLOCKS,
    "clocks.tasks.clocks_sweep": CLOCKS,
    "clocks.tasks.deadline_check": CLOCKS,
    "notifications.tasks.notification_send": MAIL,
    "notifications.tasks.notification_push": MAIL,
    "notifications.tasks.send_digests": MAIL,
    "notifications.tasks.notices_release": MAIL,
    # The same tasks under the names they had before the clocks/notifications split, for
    # those queued then (the old names are still registered).
    "correspondence.tasks.clocks_sweep": CLOCKS,
    "correspondence.tasks.deadline_check": CLOCKS,
    "ops.tasks.heartbeat": CLOCKS,  # late only when clocks are late too
    "correspondence.tasks.notification_send": MAIL,
    "correspondence.tasks.send_digests": MAIL,
}


def queue_name(prefix: str, kind: str | None) -> str:
    return f"{prefix}.{kind}" if kind else prefix


def queue_names(prefix: str) -> list[str]:
    """Every queue of a site: the default one first, then one per kind."""
    return [prefix] + [queue_name(prefix, kind) for kind in (BOTS, CLOCKS, MAIL)]


def task_routes(prefix: str) -> dict:
    return {task: {"queue": queue_name(prefix, kind)} for task, kind in TASK_KINDS.items()}
