"""Widgets of the app, each with its ``.tcss`` beside it."""
