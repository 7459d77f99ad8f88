"""Load tools and benchmarks: run from the repository root, e.g. `python -m bench.loadtest`."""
