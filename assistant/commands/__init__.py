"""CLI command groups, one module each, registered in :mod:`assistant.cli`."""
