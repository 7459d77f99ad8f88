"""Instructions a move costs the web process: bench.movebench run under Valgrind's
callgrind at two lengths, the difference divided by the moves between them.

    python -m bench.instructions [--moves 100 300]

CPU time on a shared machine drifts by a quarter from one run to the next, more than most
changes move it; the count of instructions does not (two runs of one commit agree within
about 0.6%), so a change is measured against its parent by this count. Each step of the
loop is a GET of the mover's view and the move's POST through Django's full request path
(the test client's share included, the same on both sides of a comparison). Needs
valgrind (Debian's package) and the services of the environment, as movebench does; the
two runs take a few minutes.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys


def _count(moves: int) -> int:
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         sys.executable, "-m", "bench.movebench", "--moves", str(moves)],
        capture_output=True, text=True, check=True, env=os.environ)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if found is None:
        raise SystemExit(f"callgrind printed no count:\n{out.stderr[-2000:]}")
    return int(found.group(1))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, nargs=2, default=[100, 300],
                        metavar=("SHORT", "LONG"))
    args = parser.parse_args(argv)
    short, long = sorted(args.moves)
    if short < 1 or long <= short:
        parser.error("--moves takes two different lengths of at least 1 move")
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not installed (apt-get install -y valgrind)")
    counts = [_count(short), _count(long)]
    per_move = (counts[1] - counts[0]) / (long - short)
    print(f"{per_move / 1e6:.2f} million instructions a move (GET of the view and POST), "
          f"from {short} and {long} moves: {counts[0]:,} and {counts[1]:,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
