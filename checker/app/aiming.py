"""Where `kata hint` climbs a kata's own ladder from: what the learner's last check failed.

A drill's ladder is aimed by construction (checker/app/drilling.py). A kata's ladder is written once, a
nudge to the key line, and read in order it can spend two hints on what the learner already has right
(greedy-generate failing only on the pad after eos, hints 1 and 2 about the prefill and the argmax). So a
full check of the learner's own file that fails some families and passes others is remembered (the
families, the mistake it was named as); the next hint then says which cases failed and what the mistake's
fix is about, and shows the hint of the ladder that speaks of them most, before the rest of the ladder in
its order, never one already shown in this attempt. Which hint speaks of them is read from the English
text (the words of the failing families' descriptions and the mistake's label and fix, weighted by how
rare each is among the kata's hints), so the same hint is chosen in every language. The ladder's last
hint, the key line, is never moved forward. Import-light: no torch.
"""
from __future__ import annotations

import json
import math
import re
import time
from collections import Counter
from dataclasses import dataclass

from checker.judge.results import CheckResult, Status
from checker.text.catalog import Kata
from checker.text.i18n import tr
from checker.app.practice import OPENS_ATTEMPT
from checker.app.state import Event, Store

KEY = "failed:"  # settings key prefix: the last full check of the learner's own file that failed in part
STOP = frozenset("the and for with that this its not are from into then than each every one two all any only "
                 "you your what when where which who how why was were has have had but per out off too".split())


@dataclass(frozen=True)
class Failure:
    families: tuple[str, ...]  # the case families the check failed, in the order they ran
    mistake: str | None  # the key of the mistake the report named, if one was
    at: float


def remember(store: Store, kata: Kata, result: CheckResult) -> None:
    """After a full check of the learner's own file: keep what failed when some cases pass and others do not
    (a stub, a file that fails everything or cannot run says nothing about where to look); forget it otherwise."""
    failing = tuple(f for f, n, ok in result.families() if ok < n)
    if not failing or not any(c.status is Status.PASS for c in result.cases):
        store.delete(KEY + kata.id)
        return
    labels = Counter(c.mistake for c in result.failures() if c.mistake)
    mistake = _mistake_key(kata, labels.most_common(1)[0][0]) if labels else None
    store.set(KEY + kata.id, json.dumps({"families": list(failing), "mistake": mistake, "at": time.time()}))


def _mistake_key(kata: Kata, label: str) -> str | None:
    from checker.text import i18n

    for lang in dict.fromkeys((i18n.current(), *i18n.LANGS)):  # the report may have been in another language
        for key, text in kata.text(lang).mistakes.items():
            if text.label == label:
                return key
    return None


def last_failure(store: Store, kata: Kata) -> Failure | None:
    raw = store.get(KEY + kata.id)
    try:
        data = json.loads(raw) if raw else None
        return Failure(tuple(data["families"]), data.get("mistake"), float(data["at"])) if data else None
    except (ValueError, KeyError, TypeError):
        return None


def _words(text: str) -> list[str]:
    words = []
    for word in re.findall(r"[A-Za-z][A-Za-z0-9_]*", text.lower()):
        words += [w for w in {word, *word.split("_")} if len(w) >= 3 and w not in STOP]
    return words


def best_hint(kata: Kata, failure: Failure, candidates: list[int]) -> int | None:
    """The candidate hint (an index into the ladder) that shares the most, and the rarest, words with the
    failing families and the mistake, in English; None when none shares a word."""
    english = kata.text("en")
    hints = [set(_words(h)) for h in english.hints]
    wanted = Counter(set(_words(" ".join(english.family(f) + " " + f for f in failure.families))))
    if failure.mistake in english.mistakes:  # the mistake says more than the families: its words count twice more
        named = english.mistakes[failure.mistake]
        wanted.update({w: 2 for w in set(_words(named.label + " " + named.fix))})
    rare = {w: math.log((len(hints) + 1) / (sum(w in h for h in hints) + 0.5)) for w in wanted}
    scores = {i: sum(n * rare[w] for w, n in wanted.items() if w in hints[i]) for i in candidates}
    best = max(candidates, key=lambda i: (scores[i], -i), default=None)
    return best if best is not None and scores[best] > 0 else None


def direction(fix: str) -> str:
    """The fix as far as it says what to change, not how: up to its first code or colon."""
    cut = re.split(r"`|: |：| — |，即", fix, maxsplit=1)[0].strip().rstrip(".。,，;；")
    if re.search(r"[\[\](){}=]", cut):  # code: that would be the fix itself
        return ""
    return cut if len(cut.split()) >= 3 or (cut and not cut.isascii() and len(cut) >= 6) else ""


def intro(kata: Kata, failure: Failure) -> str:
    """What the aimed hint says first: the failing family, and what the mistake's fix is about."""
    text = kata.text()
    first = failure.families[0]
    more = len(failure.families) - 1
    line = (tr("Your last check failed the cases of `{family}` ({about}) and {n} more families. ", family=first,
               about=text.family(first), n=more) if more else
            tr("Your last check failed the cases of `{family}` ({about}). ", family=first, about=text.family(first)))
    mistake = text.mistakes.get(failure.mistake) if failure.mistake else None
    if mistake is not None:
        where = direction(mistake.fix)
        line += (tr("This looks like: {label}. Towards the fix: {direction}. ", label=mistake.label, direction=where) if where
                 else tr("This looks like: {label}. ", label=mistake.label))
    return line


def step(kata: Kata, store: Store) -> tuple[int, str, bool]:
    """The next hint of the kata's own ladder, recorded: (its number in this attempt, its text, whether every
    hint was shown already and this is the last one again)."""
    hints = kata.hints
    shown, last_hint_at, opened_at = _shown(kata, store)
    failure = last_failure(store, kata)
    fresh = failure is not None and failure.at >= max(last_hint_at, opened_at)  # failed since the last hint
    left = [i for i in range(len(hints)) if i not in shown]
    again = not left
    text = ""
    if again:
        index = len(hints) - 1
    else:
        index = left[0]
        if fresh:
            movable = [i for i in left if i < len(hints) - 1] or left
            best = best_hint(kata, failure, movable)
            index = best if best is not None else left[0]
            text = intro(kata, failure)
    store.record(Event(kata.id, "hint", time.time(), detail=str(index + 1)))
    number = min(len(shown) + 1, len(hints))
    return number, text + hints[index], again


def _shown(kata: Kata, store: Store) -> tuple[set[int], float, float]:
    """The ladder's hints shown in the open attempt (indices), when the last was shown, when it opened."""
    shown: set[int] = set()
    last = opened = 0.0
    for e in store.events(kata.id):
        if e.kind in OPENS_ATTEMPT and e.verdict is None:  # an attempt opens: its hints start over
            shown, last, opened = set(), 0.0, e.at
        elif e.kind == "hint":
            last = e.at
            try:
                shown.add(int(e.detail or "") - 1)
            except ValueError:
                shown.add(len(shown))  # an old record without its number: the next in order
    return shown, last, opened
