"""kata's TOML files (content/, 140-odd of them), parsed once and kept, as Python keeps .pyc files.

Parsing every kata's text costs `kata list` 20 ms in English and 50 ms in Chinese, a third of its
start-up. The parsed tables are kept in marshal files under the kata home, keyed by each file's path,
modification time (ns) and size; a file whose key changed is parsed again. One cache file per kind of
file (its stem: `kata`, `en`, `zh`, `bugs`, …; kata's own screens' words apart, `ui-zh`), read only when
a file of that kind is: a usage error reads the catalog's facts, not every kata's English and Chinese
text (loading 46 katas' Chinese alone takes 5–10 ms).

What is worked out from the files can be kept too (`memo`): a translation merged with the English it
falls back to is kept with the keys of both files, so a command in Chinese hashes no English.

marshal (not pickle): it holds only dicts, lists, tuples, strings and numbers, and loading it runs no
code. The cache is an optimisation only: unreadable, corrupt or unwritable, it is ignored and the files
are parsed.

Import-light: no torch, no numpy.
"""
from __future__ import annotations

import atexit
import marshal
import os
import sys
from pathlib import Path
from stat import S_ISREG
from typing import Any, Callable

from checker.places import home

_FORMAT = (2, marshal.version, sys.version_info[:2])
_buckets: dict[str, dict[str, tuple[Any, Any]]] = {}  # kind -> key -> (stamp, value)
_dirty: set[str] = set()
_registered = False


def _cache_path(kind: str) -> Path:
    return home() / "cache" / f"content-{kind}.marshal"


def _bucket(kind: str) -> dict[str, tuple[Any, Any]]:
    global _registered
    if kind not in _buckets:
        entries: dict[str, tuple[Any, Any]] = {}
        try:
            stored = marshal.loads(_cache_path(kind).read_bytes())
            if isinstance(stored, tuple) and len(stored) == 2 and stored[0] == _FORMAT and isinstance(stored[1], dict):
                entries = stored[1]
        except (OSError, EOFError, ValueError, TypeError):
            pass
        _buckets[kind] = entries
        if not _registered:
            atexit.register(_save)
            _registered = True
    return _buckets[kind]


def _save() -> None:
    for kind in sorted(_dirty):
        path = _cache_path(kind)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_name(f"{path.name}.{os.getpid()}")
            partial.write_bytes(marshal.dumps((_FORMAT, _buckets[kind])))
            os.replace(partial, path)  # atomic: a concurrent kata reads the old cache or the new, never half
        except (OSError, ValueError):
            pass
    _dirty.clear()


def _reset() -> None:
    """Forget what was read, as a new process would (tests)."""
    _buckets.clear()
    _dirty.clear()


def _stamp(path: Path) -> tuple[int, int] | None:
    """(mtime in ns, size) of a regular file; None when there is none."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return (stat.st_mtime_ns, stat.st_size) if S_ISREG(stat.st_mode) else None


def _key(path: Path) -> str:
    return os.path.abspath(path)


def _keep(kind: str, key: str, stamp: Any, value: Any) -> None:
    try:
        marshal.dumps(value)  # dates and times do not marshal; such a value is simply not kept
    except ValueError:
        return
    _bucket(kind)[key] = (stamp, value)
    _dirty.add(kind)


def read(path: Path, kind: str | None = None) -> dict[str, Any]:
    """The parsed file ({} when there is none), from the cache when the file is unchanged. It is kept with
    the files of its `kind` (default: its stem, `en` for every kata's English)."""
    stamp = _stamp(path)
    if stamp is None:
        return {}
    kind, key = kind or path.stem, _key(path)
    kept = _bucket(kind).get(key)
    if kept is not None and kept[0] == stamp:
        return kept[1]
    import tomllib  # parsing is the rare case

    with path.open("rb") as handle:
        data = tomllib.load(handle)
    _keep(kind, key, stamp, data)
    return data


def memo(kind: str, name: str, paths: tuple[Path, ...], compute: Callable[[], Any]) -> Any:
    """compute()'s value, kept in the `kind` cache under `name` until any of `paths` changes (or appears,
    or goes). compute must depend on nothing but those files, and return what marshal keeps."""
    stamp = tuple(_stamp(path) for path in paths)
    key = f"{name}@" + "|".join(_key(path) for path in paths)
    kept = _bucket(kind).get(key)
    if kept is not None and kept[0] == stamp:
        return kept[1]
    value = compute()
    _keep(kind, key, stamp, value)
    return value
