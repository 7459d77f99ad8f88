"""Run a command and start it again whenever it exits, until this process is stopped.

    python scripts/supervise.py -- celery -A blaze_site worker ...

A Celery worker exits when Redis restarts under it while it holds countdown tasks (kombu
5.7's restore_unacked raises AttributeError on the closed connection); started again, it
consumes at once, and the watchdog requeues the bot turns it held. SIGTERM and SIGINT go
to the command, and end the loop. In production systemd's Restart=always does this job
(docs/production.md).
"""

import signal
import subprocess
import sys
import time

FIRST_DELAY, MAX_DELAY = 1.0, 30.0
STEADY = 60.0  # a run this long resets the delay: the crash was not a start-up failure


def main(argv: list[str]) -> int:
    if "--" not in argv or argv.index("--") == len(argv) - 1:
        print("usage: supervise.py -- command [args...]", file=sys.stderr)
        return 2
    command = argv[argv.index("--") + 1:]
    state = {"stopping": False, "child": None}

    def forward(signum, _frame):
        state["stopping"] = True
        child = state["child"]
        if child is not None and child.poll() is None:
            child.send_signal(signum)

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    delay = FIRST_DELAY
    while True:
        began = time.monotonic()
        state["child"] = subprocess.Popen(command)
        code = state["child"].wait()
        if state["stopping"]:
            return code
        delay = FIRST_DELAY if time.monotonic() - began > STEADY else delay
        print(f"supervise: {command[0]} exited with {code}; starting it again in {delay:g} s",
              file=sys.stderr, flush=True)
        end = time.monotonic() + delay
        while time.monotonic() < end and not state["stopping"]:
            time.sleep(0.1)
        if state["stopping"]:
            return code
        delay = min(delay * 2, MAX_DELAY)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
