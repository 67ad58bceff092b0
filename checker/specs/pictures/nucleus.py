"""Top-p's cut as a text picture: the failing row's probabilities sorted largest first, their running
sum, and which tokens the reference and the learner kept, with the crossing token (the first whose
running sum reaches top_p, the one nucleus sampling keeps) marked. A few lines, 60 columns at most,
plain text (it reads the same in a pipe), from plain Python values.

    sorted p   running sum     expected  yours
    …
       0.0713        0.8610    kept      kept
       0.0562        0.9172 ◀  kept      cut
       0.0401        0.9573    cut       cut
    ◀ the sum first reaches top_p = 0.9: keep this token
"""
from __future__ import annotations

import math

from rich.cells import cell_len

from checker.text.i18n import tr

BEFORE, AFTER = 3, 2  # tokens shown before the crossing token (or the first disagreement) and after


def nucleus_picture(logits: list[float], expected_kept: list[bool], got_kept: list[bool], top_k: int,
                    top_p: float) -> str:
    """Lines (each starting with two spaces) to put under "row r: n tokens kept, expected m"."""
    V = len(logits)
    order = sorted((i for i in range(V) if math.isfinite(logits[i])), key=lambda i: -logits[i])
    if not order:
        return ""
    if 0 < top_k < len(order):
        kth = logits[order[top_k - 1]]
        order = [i for i in order if logits[i] >= kth]  # ties with the k-th stay, as the reference keeps them
    top = logits[order[0]]
    weights = [math.exp(logits[i] - top) for i in order]
    total = sum(weights)
    probs = [w / total for w in weights]
    running, sums = 0.0, []
    for p in probs:
        running += p
        sums.append(running)
    crossing = next((j for j, s in enumerate(sums) if s >= top_p), len(order) - 1)
    differ = [j for j, i in enumerate(order) if expected_kept[i] != got_kept[i]]
    focus = sorted({crossing, *differ[:1]})
    lo, hi = max(0, focus[0] - BEFORE), min(len(order), focus[-1] + AFTER + 1)
    kept, cut = tr("kept"), tr("cut")
    labels = [tr("sorted p"), tr("running sum"), tr("expected"), tr("yours")]
    width = max(cell_len(kept), cell_len(cut), cell_len(labels[2])) + 2
    w0, w1 = max(10, cell_len(labels[0])), max(13, cell_len(labels[1]))  # numbers right-aligned under them
    head = f"  {_rjust(labels[0], w0)} {_rjust(labels[1], w1)}   {_pad(labels[2], width)}{labels[3]}"
    lines = [head.rstrip()]
    if lo > 0:
        lines.append("  " + tr("… {n} more likely tokens, all kept", n=lo) if all(
            expected_kept[order[j]] and got_kept[order[j]] for j in range(lo)) else "  …")
    for j in range(lo, hi):
        i = order[j]
        mark = "◀" if j == crossing else " "
        flag = "  ✗" if expected_kept[i] != got_kept[i] else ""
        lines.append(f"  {probs[j]:>{w0}.4f} {sums[j]:>{w1}.4f} {mark} "
                     f"{_pad(kept if expected_kept[i] else cut, width)}{kept if got_kept[i] else cut}{flag}")
    if hi < len(order):
        lines.append("  …")
    lines.append("  " + tr("◀ the sum first reaches top_p = {top_p}: keep this token",
                           top_p=f"{top_p:g}"))
    return "\n".join(lines)


def _rjust(text: str, width: int) -> str:
    return " " * max(0, width - cell_len(text)) + text


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - cell_len(text))
