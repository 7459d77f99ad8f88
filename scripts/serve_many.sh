#!/usr/bin/env bash
# Start N web processes (ports BASE+1 .. BASE+N; uvicorn, or daphne with WEB_SERVER=daphne:
# the options are scripts/uvicorn.args), one Celery worker reading every
# queue of the site (bots, clocks, mail, the rest) and one beat on this checkout, logs in
# .run/; Ctrl-C (or SIGTERM) stops them all. Worker and beat run under scripts/supervise.py,
# which starts them again if they exit (a Redis restart can end a worker). Used for the load
# benchmark (docs/live-play.md); in production run one web process per core behind nginx.
#   scripts/serve_many.sh 2 8300     # uvicorn on :8301 and :8302
set -euo pipefail
cd "$(dirname "$0")/.."
N="${1:-2}"; BASE="${2:-8000}"
SERVER="${WEB_SERVER:-uvicorn}"
PY=.venv/bin/python
RUN="${RUN_DIR:-.run}"  # logs and beat's schedule
mkdir -p "$RUN"
pids=()
stop() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait; }
trap stop INT TERM EXIT
for i in $(seq 1 "$N"); do
  port=$((BASE + i))
  if [ "$SERVER" = uvicorn ]; then
    # shellcheck disable=SC2046  # the options file is words, comments dropped
    .venv/bin/uvicorn blaze_site.asgi:application --host 127.0.0.1 --port "$port" \
      $(grep -v '^#' scripts/uvicorn.args) --log-level warning >"$RUN/web-$port.log" 2>&1 &
  else
    .venv/bin/daphne -b 127.0.0.1 -p "$port" blaze_site.asgi:application \
      --websocket_connect_timeout "${WS_HANDSHAKE_SECONDS:-5}" >"$RUN/web-$port.log" 2>&1 &
  fi
  pids+=($!)
  echo "$SERVER :$port pid $! (log $RUN/web-$port.log)"
done
# No -Q: the worker reads every queue the app declares (blaze_site/celery.py, lib/queues.py).
$PY scripts/supervise.py -- .venv/bin/celery -A blaze_site worker -l warning \
  --concurrency "${CELERY_CONCURRENCY:-2}" >"$RUN/celery.log" 2>&1 &
pids+=($!)
echo "celery worker pid $! (log $RUN/celery.log)"
$PY scripts/supervise.py -- .venv/bin/celery -A blaze_site beat -l warning \
  -s "$RUN/celerybeat-schedule" >"$RUN/beat.log" 2>&1 &
pids+=($!)
echo "celery beat pid $! (log $RUN/beat.log)"
wait
