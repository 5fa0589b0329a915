"""The Textual app (``sphere`` with no command).

This package is the only place that imports ``textual``; the modules
``protocols``, ``format`` and ``plan_text`` do not, so they can be unit-tested
and reused without the UI. Import :func:`assistant.ui.app.make_app` explicitly.
"""
