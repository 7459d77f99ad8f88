import subprocess
import sys
from pathlib import Path

import games.bots

BOTS = Path(games.bots.__file__).parent


def test_bot_sources_never_import_django():
    for path in BOTS.glob("*.py"):
        text = path.read_text()
        assert "import django" not in text and "from django" not in text, path


def test_bots_import_and_choose_moves_without_loading_django():
    code = ("import sys, random\n"
            "from games.engine import new_game, view\n"
            "from games.bots import choose_move\n"
            "s = new_game(4, random.Random(3))\n"
            "for level in ('random', 'basic', 'strong'):\n"
            "    seat = s.waiting_on[0]\n"
            "    s.apply(choose_move(view(s, seat), seat, random.Random(1), level,"
            " iterations=20))\n"
            "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules)\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=BOTS.parents[1])
