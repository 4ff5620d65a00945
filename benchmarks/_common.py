"""What every benchmark script shares: which adcli it measures, and where its entry point is."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def source_state() -> str:
    """The commit of the adcli checkout being measured, '+dirty' if adcli/ or grammar/ differ."""
    root = str(Path(__file__).resolve().parent.parent)
    try:
        head = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", root, "status", "--porcelain", "--", "adcli",
                                "grammar"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return "unknown commit"
    return f"commit {head or 'unknown'}{'+dirty' if dirty.strip() else ''}"


def adcli_executable() -> str:
    """The installed entry point next to this interpreter (the venv's bin dir)."""
    path = Path(sys.executable).parent / ("adcli.exe" if os.name == "nt" else "adcli")
    if not path.exists():
        sys.exit(f"no adcli entry point at {path}: install adcli into this interpreter's "
                 "environment (pip install .) or run with that environment's python")
    return str(path)
