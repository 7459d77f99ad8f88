"""Production settings: the same module with BLAZE_ENV forced to production."""

import os

os.environ["BLAZE_ENV"] = "production"

from .settings import *  # noqa: E402, F403
