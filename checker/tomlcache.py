"""kata's TOML files (content/, 80-odd of them), parsed once and kept, as Python keeps .pyc files.

Parsing every kata's text costs `kata list` 20 ms in English and 50 ms in Chinese, a third of its
start-up. The parsed tables are kept in one marshal file under the kata home, keyed by each file's
path, modification time (ns) and size; a file whose key changed is parsed again. marshal (not pickle):
it holds only dicts, lists, strings and numbers, and loading it runs no code. The cache is an
optimisation only: unreadable, corrupt or unwritable, it is ignored and the files are parsed.

Import-light: no torch, no numpy.
"""
from __future__ import annotations

import atexit
import marshal
import os
import sys
from pathlib import Path
from stat import S_ISREG
from typing import Any

from checker.places import home

_FORMAT = (1, marshal.version, sys.version_info[:2])
_entries: dict[str, tuple[int, int, Any]] | None = None
_dirty = False


def _cache_path() -> Path:
    return home() / "cache" / "content.marshal"


def _load() -> dict[str, tuple[int, int, Any]]:
    global _entries
    if _entries is None:
        _entries = {}
        try:
            stored = marshal.loads(_cache_path().read_bytes())
            if isinstance(stored, tuple) and len(stored) == 2 and stored[0] == _FORMAT and isinstance(stored[1], dict):
                _entries = stored[1]
        except (OSError, EOFError, ValueError, TypeError):
            pass
        atexit.register(_save)
    return _entries


def _save() -> None:
    if not _dirty or _entries is None:
        return
    path = _cache_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}")
        partial.write_bytes(marshal.dumps((_FORMAT, _entries)))
        os.replace(partial, path)  # atomic: a concurrent kata reads the old cache or the new, never half
    except (OSError, ValueError):
        pass


def read(path: Path) -> dict[str, Any]:
    """The parsed file ({} when there is none), from the cache when the file is unchanged."""
    global _dirty
    try:
        stat = path.stat()
    except OSError:
        return {}
    if not S_ISREG(stat.st_mode):
        return {}
    entries = _load()
    key = str(path.resolve())
    kept = entries.get(key)
    if kept is not None and kept[0] == stat.st_mtime_ns and kept[1] == stat.st_size:
        return kept[2]
    import tomllib  # parsing is the rare case

    with path.open("rb") as handle:
        data = tomllib.load(handle)
    try:
        marshal.dumps(data)  # dates and times do not marshal; such a file is simply not kept
    except ValueError:
        return data
    entries[key] = (stat.st_mtime_ns, stat.st_size, data)
    _dirty = True
    return data
