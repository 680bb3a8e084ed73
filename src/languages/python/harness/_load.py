"""Loads the harness's sibling modules (and the scoring codec) by path, under private names.

The harness runs with the repository on sys.path; loading by path under `_codemidas_*` names keeps a
repository module called `codec`, `values` or `mutants` from colliding with ours, and keeps the
harness folder itself off sys.path. The codec is the scoring one (src/languages/python/judge/codec.py),
copied next to the harness at run time; in a source checkout it is found at its own place.
"""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_CODEC_CANDIDATES = (
    os.path.join(HERE, "codec.py"),
    os.path.normpath(os.path.join(HERE, "..", "judge", "codec.py")),
)


def load(name, path=None):
    key = "_codemidas_" + name
    if key in sys.modules:
        return sys.modules[key]
    if path is None:
        if name == "codec":
            path = next((p for p in _CODEC_CANDIDATES if os.path.exists(p)), _CODEC_CANDIDATES[0])
        else:
            path = os.path.join(HERE, name + ".py")
    spec = importlib.util.spec_from_file_location(key, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module
    spec.loader.exec_module(module)
    return module


def strip_harness_from_path():
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE]
