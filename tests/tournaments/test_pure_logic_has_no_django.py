import subprocess
import sys
from pathlib import Path

import tournaments

APP = Path(tournaments.__file__).parent


def test_seating_and_points_never_import_django():
    for name in ("seating.py", "points.py"):
        text = (APP / name).read_text()
        assert "import django" not in text and "from django" not in text, name
    code = ("import sys; import tournaments.seating, tournaments.points\n"
            "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules)\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=APP.parent)
