"""The prompt files (``*.yaml``), one per model step (DESIGN §5).

They live at the top of the checkout and ship in the wheel as the package
``assistant.prompts`` (``tool.setuptools.package-dir`` in pyproject.toml), where
:func:`assistant.llm.prompts.prompts_dir` finds them with ``importlib.resources``.
"""
