"""Test-only app of the browser tests' server: it deals, seats and moves its bots from generators
seeded with the test's name (BLAZE_E2E_DEAL_SEED), as the in-process tests do (tests/conftest.py),
so a deal that breaks a layout breaks it on every machine, not on one run in three."""
