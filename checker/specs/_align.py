"""Shared pieces of the alignment family's specs: masks with holes and garbage behind them, the family's
tolerance, `requires_grad` as a compared item, and the reports that show what a mask and an aggregation did.

Masks: bool or 0./1. float, True = a real response token, not only a prefix (multi-turn masks have holes).
Masked positions hold garbage that must change no output: never 0, so code that forgets the mask is seen.
"""
from __future__ import annotations

from typing import Any

import torch
from rich.cells import cell_len

from checker.judge import spec as spec_api
from checker.text.i18n import tr
from checker.judge.spec import Outcome

# float64 atol 1e-7 (the project's is 1e-9): an eps = 1e-8 guard in a per-sequence denominator
# (`mask.sum(-1) + 1e-8`, verl's seq-mean-token-mean) moves a mean of cancelling terms by ~1e-8 and must pass.
TOLERANCES = {torch.float64: (1e-7, 1e-7)}
REQUIRES_GRAD = "requires_grad of {name}"


def tolerance_for(case: Any, item: str, dtype: torch.dtype, expected: Any) -> tuple[float, float] | None:
    """Gradients at the dtype's tolerance times max(1, max|expected gradient|)."""
    if not item.startswith("grad of") or expected is None or expected.numel() == 0:
        return None
    rtol, atol = {**spec_api.TOLERANCES, **TOLERANCES}.get(dtype, (0.0, 0.0))
    return rtol, atol * max(1.0, float(expected.double().abs().max()))


def lengths_mask(g: torch.Generator, B: int, T: int, lengths: tuple[int, ...] | str = "random",
                 holes: bool = False) -> torch.Tensor:
    """A bool [B, T] mask: each row's valid tokens first (prefix), `lengths` of them ("random": 1..T,
    "random0": 0..T); with holes, random positions inside each prefix are masked too (a row keeps
    at least one valid token when its length is at least 2, as multi-turn masks do)."""
    if isinstance(lengths, str):
        low = 0 if lengths == "random0" else 1
        n = torch.randint(low, T + 1, (B,), generator=g)
    else:
        n = torch.tensor(lengths)
    mask = torch.arange(T)[None, :] < n[:, None]  # (B, T)
    if holes:
        drop = torch.rand(B, T, generator=g) < 0.35
        drop[:, 0] = False  # the first token of every row stays: a hole is inside a response
        mask = mask & ~drop
    return mask


def holey_mask(g: torch.Generator, B: int, T: int) -> torch.Tensor:
    """Holes anywhere, every row keeping at least one valid token (multi-turn: tool output masked out)."""
    mask = torch.rand(B, T, generator=g) < 0.6
    first = torch.randint(0, T, (B,), generator=g)
    mask[torch.arange(B), first] = True
    return mask


def with_garbage(g: torch.Generator, x: torch.Tensor, mask: torch.Tensor, scale: float) -> torch.Tensor:
    """x with every masked position replaced by a nonzero value of size scale/2 .. 3·scale/2, random sign."""
    size = scale * (0.5 + torch.rand(x.shape, generator=g, dtype=torch.float64))
    sign = torch.where(torch.rand(x.shape, generator=g) < 0.5, -1.0, 1.0).to(torch.float64)
    return torch.where(mask.bool(), x, (size * sign).to(x.dtype))


def as_kind(mask: torch.Tensor, kind: str, dtype: torch.dtype) -> torch.Tensor:
    return mask if kind == "bool" else mask.to(dtype)


def call_with_requires_grad(name: str):
    """A `call` hook: the default protocol, plus whether the first output is in the graph, compared as an item."""
    def call(kata: Any, entry: Any, inputs: spec_api.Inputs, device: torch.device, track_device: bool = False) -> Outcome:
        outcome = spec_api.call(kata, entry, inputs, device, track_device)
        if inputs.raises is None:
            value = outcome.value
            first = value[0] if isinstance(value, (tuple, list)) and value else value
            if isinstance(first, torch.Tensor):
                outcome.extras[REQUIRES_GRAD.format(name=name)] = bool(first.requires_grad)
        return outcome
    return call


# ---------------------------------------------------------------- what each aggregation divides by


def aggregation_lines(x: torch.Tensor, mask: torch.Tensor, mode: str, scale: float | None, got: float) -> str:
    """A few lines that fit 60 columns: the per-sequence lengths, then each way of averaging x over the
    mask (the four modes, a mean over padding, empty rows counted, Dr. GRPO's 1/B), what it divides by,
    its value, and which the contract asks for and which yours matches."""
    x, m = x.double(), mask.double()
    B, T = x.shape
    n = m.sum(-1)  # (B,) valid tokens per sequence
    rows = int((n > 0).sum())
    tokens = int(n.sum())
    total = float((x * m).sum())
    per_seq = (x * m).sum(-1)  # (B,)
    seq_mean = float((per_seq / n.clamp(min=1)).sum())
    norm = float(T if scale is None else scale)
    cands = [
        ("token-mean", f"Σ/{tokens}", total / max(tokens, 1)),
        ("seq-mean-token-mean", f"Σᵢ(Σ/nᵢ)/{rows}", seq_mean / max(rows, 1)),
        ("seq-mean-token-sum", f"Σ/{rows}", total / max(rows, 1)),
        ("seq-mean-token-sum-norm", f"Σ/{norm:g}", total / norm),
        (tr("padding counted"), f"Σ/{B * T}", total / (B * T)),
    ]
    if rows < B:
        cands.append((tr("empty rows counted"), f"Σᵢ(Σ/nᵢ)/{B}", seq_mean / B))
    if mode == "seq-mean-token-sum-norm":
        cands.append((tr("Dr. GRPO with 1/B"), f"Σ/{B}·{norm:g}", total / (B * norm)))
    shown = " ".join(str(int(v)) for v in n[:16].tolist()) + (" …" if B > 16 else "")
    lines = [tr("nᵢ {lengths} · {tokens} tokens · {rows}/{B} rows non-empty · T {T}", lengths=shown,
                tokens=tokens, rows=rows, B=B, T=T)]
    rows_out = [(name, divides, f"{value:.5g}", value) for name, divides, value in cands]
    if not any(_close(value, got) for _, _, value in cands):
        rows_out.append((tr("yours"), "", f"{got:.5g}", got))
    widths = [max(cell_len(r[i]) for r in rows_out) for i in range(3)]
    for name, divides, shown, value in rows_out:
        marks = []
        if name == mode:
            marks.append(tr("← expected"))
        if _close(value, got) and name != tr("yours"):
            marks.append(tr("← yours"))
        cells = [_pad(name, widths[0]), _pad(divides, widths[1]), _pad(shown, widths[2], right=True)]
        lines.append((" " + " ".join(cells) + " " + " ".join(marks)).rstrip())
    return "\n".join(lines)


def _pad(text: str, width: int, right: bool = False) -> str:
    space = " " * max(width - cell_len(text), 0)  # cells, not characters: Chinese labels are two cells wide
    return space + text if right else text + space


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-5 * max(1.0, abs(a))


def explain_aggregation(problems: list, item: str, table: str) -> list:
    """Append the aggregation table to the loss's value problem, when there is one."""
    from dataclasses import replace

    return [replace(p, message=p.message + "\n" + table) if p.item == item and p.kind in ("values", "precision")
            else p for p in problems]


# ---------------------------------------------------------------- which masked position leaked


def leak_grid(mask: torch.Tensor, contribution: torch.Tensor, header: Any = None, max_cols: int = 48,
              max_rows: int = 8) -> str | None:
    """Rows of the mask as ■ (valid) and · (masked), with ✗ where a masked position still contributes
    (a nonzero gradient or output); None when nothing masked leaked. header(index) is the first line."""
    m = mask.bool().reshape(-1, mask.shape[-1])
    c = contribution.reshape(-1, contribution.shape[-1]) != 0
    leaked = ~m & c
    if not leaked.any():
        return None
    first = leaked.nonzero()[0].tolist()
    lines = [header(tuple(first)) if header is not None else
             tr("masked positions that change the loss (✗), first at {index}:", index=tuple(first))]
    R, T = m.shape
    for r in range(min(R, max_rows)):
        cells = "".join("✗" if leaked[r, t] else ("■" if m[r, t] else "·") for t in range(min(T, max_cols)))
        lines.append(f"  {r:>2} {cells}{' …' if T > max_cols else ''}")
    if R > max_rows:
        lines.append("  " + tr("… {n} more rows", n=R - max_rows))
    lines.append("  " + tr("■ valid  · masked  ✗ masked but not ignored"))
    return "\n".join(lines)


def explain_leak(problems: list, item: str, grid: str | None) -> list:
    from dataclasses import replace

    if grid is None:
        return problems
    return [replace(p, message=p.message + "\n" + grid) if p.item == item and p.kind in ("values", "nonfinite")
            else p for p in problems]
