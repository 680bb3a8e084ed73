"""Puts clients/python on sys.path so the tests import the package from the source tree."""

import sys
from pathlib import Path

_CLIENT_ROOT = Path(__file__).resolve().parent.parent
if str(_CLIENT_ROOT) not in sys.path:
    sys.path.insert(0, str(_CLIENT_ROOT))
