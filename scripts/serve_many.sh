#!/usr/bin/env bash
# Start N daphne web processes (ports BASE+1 .. BASE+N) and one Celery worker on this
# checkout, logs in .run/; Ctrl-C (or SIGTERM) stops them all. Used for the load
# benchmark (README.md, "Live play"); in production run one daphne per core behind nginx.
#   scripts/serve_many.sh 2 8300     # daphne on :8301 and :8302
set -euo pipefail
cd "$(dirname "$0")/.."
N="${1:-2}"; BASE="${2:-8000}"
PY=.venv/bin/python
mkdir -p .run
pids=()
stop() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait; }
trap stop INT TERM EXIT
for i in $(seq 1 "$N"); do
  port=$((BASE + i))
  .venv/bin/daphne -b 127.0.0.1 -p "$port" blaze_site.asgi:application --websocket_connect_timeout "${WS_HANDSHAKE_SECONDS:-5}" \
    >".run/daphne-$port.log" 2>&1 &
  pids+=($!)
  echo "daphne :$port pid $! (log .run/daphne-$port.log)"
done
.venv/bin/celery -A blaze_site worker -l warning --concurrency "${CELERY_CONCURRENCY:-2}" \
  -Q "${CELERY_TASK_DEFAULT_QUEUE:-celery}" >.run/celery.log 2>&1 &
pids+=($!)
echo "celery worker pid $! (log .run/celery.log)"
wait
