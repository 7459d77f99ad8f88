# Source this file: it picks the services the tests use (shared by `make test` and .ci/run).
# PostgreSQL and Redis when they answer on 127.0.0.1, else SQLite and the in-memory layer.
_probe() { "${PYTHON:-python3}" "$(dirname "${BASH_SOURCE[0]}")/probe.py" "$@"; }

if [ -z "${DATABASE_URL:-}" ]; then
  if _probe 127.0.0.1 5432; then
    export DATABASE_URL="postgres://postgres@127.0.0.1:5432/blaze"
  else
    export DATABASE_URL="sqlite:///db.sqlite3"
  fi
fi
if [ -z "${BLAZE_INMEMORY:-}" ]; then
  if _probe 127.0.0.1 6379; then
    export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379/0}"
    export BLAZE_INMEMORY=0
  else
    export BLAZE_INMEMORY=1
  fi
fi
echo "test env: DATABASE_URL=${DATABASE_URL} BLAZE_INMEMORY=${BLAZE_INMEMORY}"
# Strong bots search briefly in tests; the figures of their strength come from the arena.
export BLAZE_BOT_BUDGET_MS="${BLAZE_BOT_BUDGET_MS:-50}"
# One test process a core (pytest-xdist, each taking whole files): the suite waits on servers,
# workers and browsers as much as it computes. Each process has its own channel prefix and
# Celery queues, and pytest-django gives each its own test database (test_blaze_gw0, ...).
# TEST_PROCESSES=1 runs the suite in this one process.
TEST_PROCESSES="${TEST_PROCESSES:-$(nproc 2>/dev/null || echo 1)}"
BLAZE_TEST_ARGS=()
if [ "$TEST_PROCESSES" -gt 1 ]; then
  BLAZE_TEST_ARGS=(-p xdist --dist loadfile)
  for _i in $(seq 1 "$TEST_PROCESSES"); do
    BLAZE_TEST_ARGS+=(--tx "popen//env:CHANNEL_LAYER_PREFIX=${CHANNEL_LAYER_PREFIX:-blaze}-t${_i}//env:CELERY_TASK_DEFAULT_QUEUE=${CELERY_TASK_DEFAULT_QUEUE:-celery}-t${_i}")
  done
fi
echo "test processes: ${TEST_PROCESSES}"
