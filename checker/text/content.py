"""A kata's text — title, summary, contract, hints, case families, mistakes, follow-up questions —
read from `content/<kata>/<lang>.toml`.

en.toml is the source. Every other language mirrors its keys and records, in a `[sources]` table,
the hash of the English text each translation was made from: a translation whose English has
changed since is stale, and is not shown (English is, until a translator updates it). A missing
translation falls back to English too, never to an error. `python -m checker.text.content status`
lists what is missing or stale; `stamp` records the hashes once a translation is written.

Import-light: no torch, no numpy (`kata list`, `start`, `hint` read this).
"""
from __future__ import annotations

import functools
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from checker.text import i18n, tomlcache

SOURCE = i18n.ENGLISH
SOURCES_TABLE = "sources"
MESSAGES_TABLE = "messages"


@dataclass(frozen=True)
class MistakeText:
    label: str  # what the report says it looks like: "dones ignored"
    fix: str  # the fix, in one sentence
    variants: dict[str, str] = field(default_factory=dict)  # variant -> how it differs ("max move below 1e-4")


@dataclass(frozen=True)
class Followup:
    question: str
    answer: str


@dataclass(frozen=True)
class KataText:
    """Everything a learner reads about one kata, in one language (English where untranslated)."""

    lang: str
    title: str
    summary: str
    contract: str  # the stub's docstring
    hints: tuple[str, ...]
    families: dict[str, str]  # case family -> what it tests, in one sentence
    mistakes: dict[str, MistakeText]  # mistake key (the spec's) -> label and fix
    followups: tuple[Followup, ...]
    missing: tuple[str, ...] = ()  # paths shown in English because their translation is missing or stale
    solutions: dict[str, str] = field(default_factory=dict)  # solutions/<name>.py -> what it does differently
    conventions: dict[str, str] = field(default_factory=dict)  # convention key (the spec's) -> its name in words

    def family(self, name: str) -> str:
        return self.families.get(name, name.replace("_", " "))


def digest(text: str) -> str:
    """What a translation records of the English it was made from."""
    import hashlib  # only a translation's currency needs it, not English start-up

    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:10]


def read_toml(path: Path) -> dict[str, Any]:
    """The parsed file, {} if there is none (kept parsed between runs: checker/text/tomlcache.py). Read-only:
    the same tables are handed to every caller."""
    return tomlcache.read(path)


def leaves(data: Any, prefix: str = "") -> Iterator[tuple[str, str]]:
    """(dotted path, text) for every string in a text file: "hints.0", "mistakes.biased_std.fix"."""
    if isinstance(data, str):
        yield prefix, data
    elif isinstance(data, dict):
        for key, value in data.items():
            if not prefix and key in (SOURCES_TABLE, MESSAGES_TABLE):
                continue
            yield from leaves(value, f"{prefix}.{key}" if prefix else key)
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from leaves(value, f"{prefix}.{i}" if prefix else str(i))


def translation_state(english: dict[str, Any], other: dict[str, Any]) -> dict[str, str]:
    """Path -> "current", "stale" or "missing" for every English text."""
    theirs = dict(leaves(other))
    sources = other.get(SOURCES_TABLE, {})
    state = {}
    for path, text in leaves(english):
        if path not in theirs or not theirs[path].strip():
            state[path] = "missing"
        elif sources.get(path) != digest(text):
            state[path] = "stale"
        else:
            state[path] = "current"
    return state


def _merge(english: Any, other: Any, usable: set[str], prefix: str = "") -> Any:
    """English's structure with each usable translated text put in."""
    if isinstance(english, str):
        return other if prefix in usable and isinstance(other, str) else english
    if isinstance(english, dict):
        other = other if isinstance(other, dict) else {}
        return {k: _merge(v, other.get(k), usable, f"{prefix}.{k}" if prefix else k) for k, v in english.items()}
    if isinstance(english, list):
        other = other if isinstance(other, list) else []
        return [_merge(v, other[i] if i < len(other) else None, usable, f"{prefix}.{i}" if prefix else str(i))
                for i, v in enumerate(english)]
    return english


def title(folder: Path, lang: str) -> str:
    """The kata's title alone, by the same rule as load() (`kata list` needs 46 titles, not 46 texts)."""
    english_path = folder / f"{SOURCE}.toml"
    if lang == SOURCE:
        return tomlcache.memo("en-title", "title", (english_path,), lambda: read_toml(english_path).get("title", folder.name))
    path = folder / f"{lang}.toml"

    def work_out() -> str:
        source = read_toml(english_path).get("title", folder.name)
        other = read_toml(path)
        state = translation_state({"title": source}, {"title": other.get("title", ""),
                                                      SOURCES_TABLE: other.get(SOURCES_TABLE, {})})
        return other["title"] if state["title"] == "current" else source

    return tomlcache.memo(f"{lang}-title", "title", (english_path, path), work_out)


def _translated(folder: Path, lang: str) -> tuple[dict[str, Any], tuple[str, ...], dict[str, str]]:
    """The kata's text in `lang` merged with the English it falls back to, the paths shown in English, and the
    spec's messages in `lang`: worked out once (it hashes every English text), kept until either file changes."""
    english_path, path = folder / f"{SOURCE}.toml", folder / f"{lang}.toml"

    def work_out() -> tuple[dict[str, Any], tuple[str, ...], dict[str, str]]:
        english, other = read_toml(english_path), read_toml(path)
        state = translation_state(english, other)
        data = _merge(english, other, {p for p, s in state.items() if s == "current"})
        missing = tuple(p for p, s in state.items() if s != "current")
        return data, missing, dict(other.get(MESSAGES_TABLE, {}))

    return tomlcache.memo(f"{lang}-text", "text", (english_path, path), work_out)


@functools.lru_cache(maxsize=None)
def load(folder: Path, lang: str) -> KataText:
    """The kata's text in `lang`, English wherever the translation is missing or stale."""
    if lang == SOURCE:
        data, missing = read_toml(folder / f"{SOURCE}.toml"), ()
    else:
        data, missing, messages = _translated(folder, lang)
        i18n.register(lang, messages)
    mistakes = {key: MistakeText(m.get("label", key), m.get("fix", ""), dict(m.get("variants", {})))
                for key, m in data.get("mistakes", {}).items()}
    followups = tuple(Followup(f.get("question", ""), f.get("answer", "")) for f in data.get("followups", []))
    return KataText(lang=lang, title=data.get("title", folder.name), summary=data.get("summary", ""),
                    contract=data.get("contract", ""), hints=tuple(data.get("hints", ())),
                    families=dict(data.get("families", {})), mistakes=mistakes, followups=followups, missing=missing,
                    solutions=dict(data.get("solutions", {})), conventions=dict(data.get("conventions", {})))


# ---------------------------------------------------------------- keeping translations current


def stamp(path: Path, english_path: Path, only: list[str] | None = None) -> list[str]:
    """Record, for translated texts, the hash of the English they translate; returns the paths stamped.

    Without `only`, stamps the texts that have no recorded source yet (a first translation); with
    `only`, restamps exactly those paths (after their translation was updated to new English).
    """
    english = dict(leaves(read_toml(english_path)))
    data = read_toml(path)
    theirs = dict(leaves(data))
    sources = dict(data.get(SOURCES_TABLE, {}))
    chosen = only if only is not None else [p for p in theirs if p in english and p not in sources]
    unknown = [p for p in chosen if p not in english or p not in theirs]
    if unknown:
        raise SystemExit(f"no translated text at: {', '.join(unknown)}")
    for p in chosen:
        sources[p] = digest(english[p])
    sources = {p: sources[p] for p in english if p in sources}  # English order, nothing orphaned
    text = path.read_text(encoding="utf-8")
    head = text.split(f"\n[{SOURCES_TABLE}]\n")[0].rstrip("\n")
    lines = [f'"{p}" = "{h}"' for p, h in sources.items()]
    path.write_text(head + f"\n\n[{SOURCES_TABLE}]\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return chosen


CONTENT_DIR = Path(__file__).resolve().parents[2] / "content"


def main(argv: list[str]) -> int:
    """python -m checker.text.content status | stamp KATA [PATH ...]   [--lang LANG, default zh]"""
    lang = "zh"
    if "--lang" in argv:
        at = argv.index("--lang")
        lang = argv[at + 1]
        argv = argv[:at] + argv[at + 2:]
    if not argv or argv[0] not in ("status", "stamp"):
        print(main.__doc__)
        return 2
    if argv[0] == "status":
        bad = 0
        for folder in sorted(p.parent for p in CONTENT_DIR.glob("*/kata.toml")):
            state = translation_state(read_toml(folder / f"{SOURCE}.toml"), read_toml(folder / f"{lang}.toml"))
            for p, s in state.items():
                if s != "current":
                    bad += 1
                    print(f"{folder.name.replace('_', '-')}: {s} {p}")
        print(f"{bad} {'text' if bad == 1 else 'texts'} missing or stale in {lang}")
        return 1 if bad else 0
    if len(argv) < 2 or not (CONTENT_DIR / argv[1].replace("-", "_") / "kata.toml").is_file():
        print(f"no kata named {argv[1] if len(argv) > 1 else '?'!r}")
        return 2
    folder = CONTENT_DIR / argv[1].replace("-", "_")
    done = stamp(folder / f"{lang}.toml", folder / f"{SOURCE}.toml", argv[2:] or None)
    print(f"stamped {len(done)} {'text' if len(done) == 1 else 'texts'} of {argv[1]} ({lang})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
