"""Benchmarks behind ``sphere bench …`` (ratios to a reference run in the same process)."""
