"""The software version a report prints: `casino.__version__`, with the git commit when the
code runs from a git checkout (e.g. "0.1.0 (f4e893b)")."""
from __future__ import annotations

import subprocess
from functools import lru_cache
from pathlib import Path

import casino


@lru_cache(maxsize=1)
def software_version() -> str:
    try:
        commit = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=Path(casino.__file__).parent,
                                capture_output=True, text=True, timeout=5, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    return f"{casino.__version__} ({commit})" if commit else casino.__version__
