"""Helpers below every app: hand-written SQL, rate limits, queue names. Imports no app."""
