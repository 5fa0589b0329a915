"""Sphere: offline, perspective-aware balanced research."""

__version__ = "0.1.0"
