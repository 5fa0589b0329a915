"""Modal and full screens of the app, each with its ``.tcss`` beside it."""
