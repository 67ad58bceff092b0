"""Where kata keeps what it writes for the learner (history, settings, caches): one folder, KATA_HOME.

A leaf module (standard library only), so that the lowest layers (the content cache) can find it.
"""
from __future__ import annotations

import os
from pathlib import Path


def home() -> Path:
    """$KATA_HOME, else $XDG_DATA_HOME/kata, else ~/.local/share/kata."""
    if os.environ.get("KATA_HOME"):
        return Path(os.environ["KATA_HOME"]).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or (Path.home() / ".local" / "share")
    return Path(base) / "kata"
