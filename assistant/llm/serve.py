"""``python -m assistant.llm.serve …``: llama_cpp.server with the AMX guard.

Same arguments as ``python -m llama_cpp.server``; the model is loaded with
llama.cpp's extra CPU buffer types off (see
:func:`assistant.llm.llama.safe_model_params`), so the server does not die
with SIGILL on machines that report AMX but cannot run it.
"""

from __future__ import annotations

import runpy
import sys


def main() -> None:
    import llama_cpp
    import llama_cpp.llama as llama_module

    original = llama_cpp.llama_model_default_params

    def patched() -> object:
        params = original()
        if hasattr(params, "use_extra_bufts"):
            params.use_extra_bufts = False
        return params

    llama_module.llama_cpp.llama_model_default_params = patched
    sys.argv[0] = "llama_cpp.server"
    runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
