"""Which language kata speaks, and every message it prints in that language.

Messages are written in English in the code, wrapped in `tr()`: the English text is the key
(gettext's msgid), so an English message that changes simply has no translation until a
translator gives it one, and never shows a stale one. Translations live in
`content/ui/<lang>.toml` (kata's own screens) and in each kata's `content/<kata>/<lang>.toml`
(`[messages]`: what its spec says in reports). A missing translation falls back to English.

Import-light (no torch, no rich): every command reads this before anything else.
"""
from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Iterator

from checker.text import tomlcache
from checker.errors import KataError

LANGS = ("en", "zh")
ENGLISH = "en"
UI_DIR = Path(__file__).resolve().parents[2] / "content" / "ui"
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_current = ENGLISH
_messages: dict[str, dict[str, str]] = {}  # lang -> English msgid -> translation
_external: dict[str, dict[str, str]] = {}  # lang -> typer's / click's English -> translation


def current() -> str:
    return _current


def use(lang: str) -> None:
    """Speak `lang` from now on (one of LANGS)."""
    global _current
    if lang not in LANGS:
        raise KataError(f"Unknown language '{lang}': use {' or '.join(LANGS)}.")
    _current = lang


@contextlib.contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Speak `lang` inside the block (a stub written in another language than the screen's)."""
    global _current
    saved, _current = _current, lang
    try:
        yield
    finally:
        _current = saved


def from_locale(environ: dict[str, str] | os._Environ = os.environ) -> str | None:
    """zh when the first locale variable that is set names Chinese (zh_CN.UTF-8, zh_TW, zh:en); else None."""
    for name in LOCALE_VARIABLES:
        value = environ.get(name, "").strip()
        if not value:
            continue
        first = value.split(":")[0].strip().lower()
        if first in ("c", "posix", "c.utf-8"):
            return None
        return "zh" if first.startswith("zh") else ENGLISH
    return None


def resolve(flag: str | None, saved: str | None, environ: dict[str, str] | os._Environ = os.environ) -> str:
    """The language to speak: --lang > KATA_LANG > `kata config lang` > the locale > English."""
    for source, value in (("--lang", flag), ("KATA_LANG", environ.get("KATA_LANG") or None)):
        if value is not None:
            value = value.strip().lower()
            if value not in LANGS:
                raise KataError(f"{source} {value!r} is not a language kata speaks: use {' or '.join(LANGS)}.")
            return value
    if saved in LANGS:
        return saved
    return from_locale(environ) or ENGLISH


def register(lang: str, messages: dict[str, str]) -> None:
    """Add translated messages (a kata's own, when its text is loaded)."""
    _catalog(lang).update(messages)


def _catalog(lang: str) -> dict[str, str]:
    if lang not in _messages:
        _messages[lang] = dict(tomlcache.read(UI_DIR / f"{lang}.toml", f"ui-{lang}").get("messages", {}))
    return _messages[lang]


def tr(msgid: str, /, **values: object) -> str:
    """The message `msgid` in the current language, with `values` filled in ({name} placeholders)."""
    template = msgid if _current == ENGLISH else _catalog(_current).get(msgid, msgid)
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError):  # a translation with a broken placeholder: English instead
        return msgid.format(**values)


def external(msgid: str) -> str:
    """typer's and click's own words (panel titles, usage errors), from `[external]` in the ui catalog."""
    if _current == ENGLISH:
        return msgid
    if _current not in _external:
        _external[_current] = dict(tomlcache.read(UI_DIR / f"{_current}.toml", f"ui-{_current}").get("external", {}))
    return _external[_current].get(msgid, msgid)


def plural(n: int, one: str, many: str, /, **values: object) -> str:
    """`one` or `many` (English msgids, both translated), with {n} and `values` filled in."""
    return tr(one if n == 1 else many, n=n, **values)
