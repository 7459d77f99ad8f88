"""Settings of the web server the schemathesis run talks to (tests/abuse/test_schema_truth.py).

No worker runs: bot turns, clocks and mail are queued in the process's memory and never
run, as on a site whose workers are busy. With eager tasks one request would play whole
bot games in-process; the run is about the API's answers, not the bots.
"""

from blaze_site.settings import *  # noqa: F403

CELERY_TASK_ALWAYS_EAGER = False
CELERY_BROKER_URL = "memory://"
