"""Django's PostgreSQL backend whose pool hands out a connection without a round trip
when nothing says it died (lib/postgresql/base.py)."""
