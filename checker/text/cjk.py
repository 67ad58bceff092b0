"""Line breaking for Chinese: where a line of mixed Chinese and code may break.

rich and click break lines at spaces only, so a run of Chinese (which has none) is one "word": it is
pushed whole to the next line, or cut anywhere when longer than a line. Chinese may break between
any two characters, except that no line starts with a closing mark (。，）) and none ends with an
opening one (（「). `install()` teaches rich that rule; cli.py teaches click the same with `pieces`.
Text without wide characters (all English) is split exactly as before.
"""
from __future__ import annotations

from typing import Iterable

from rich.cells import cell_len

OPENING = "（「『【《“‘([{"
CLOSING = "，。、；：！？）」』】》”’…—)]}.,:;!?"  # — : a Chinese dash (——) neither splits nor starts a line


def breakable(a: str, b: str) -> bool:
    """Whether a line may break between the characters a and b."""
    return (cell_len(a) == 2 or cell_len(b) == 2) and b not in CLOSING and a not in OPENING


def pieces(chunk: str) -> list[str]:
    """A chunk without spaces, cut wherever a line may break (a run of ASCII stays whole)."""
    out: list[str] = []
    for ch in chunk:
        if out and not breakable(out[-1][-1], ch):
            out[-1] += ch
        else:
            out.append(ch)
    return out


_installed = False


def install() -> None:
    """Make rich wrap Chinese between characters (idempotent)."""
    global _installed
    if _installed:
        return
    from rich import _wrap

    plain_words = _wrap.words

    def words(text: str) -> Iterable[tuple[int, int, str]]:
        for start, end, word in plain_words(text):
            if cell_len(word) == len(word):  # no wide character: one word, as rich has it
                yield start, end, word
                continue
            core = word.strip()
            parts = pieces(core)
            parts[0] = word[:len(word) - len(word.lstrip())] + parts[0]
            parts[-1] += word[len(word.rstrip()):]
            for part in parts:
                yield start, start + len(part), part
                start += len(part)

    _wrap.words = words
    _installed = True
