"""The case model and the margin rule shared by the beam-search katas (`beam-search`, `beam-search-hf`).

The model (`BeamModel`, a frozen description that travels in a case's args; `BeamModel.build(device)` is the
callable the learner's code is handed)

    model = BeamModel(seed, vocab, prompt_len, eos=3, eos_bias=-1.0, eos_slope=0.6, scale=1.5,
                      dtype=torch.float32)
    log_prob_fn = model.build(input_ids.device)       # a LogProbFn
    log_prob_fn(seqs)                                 # seqs int64 [N, L'] on that device -> [N, V] log-probs
    model.row((5, 1, 7))                              # one row's log-probs as Python floats (the same numbers)

A row's logits are a pure function of the row's tokens: `zlib.crc32` of the tokens (as int64 bytes), chained
with the model's seed, picks V entries of a fixed table of 2**16 standard normals (torch's generator, seed 0),
times `scale`; the eos token (`eos`, None: no bias) gets `eos_bias + eos_slope · n`, n = L' − prompt_len (the
tokens generated so far, 0 for the prompt alone), so hypotheses end mid-way as they grow. The log-softmax is taken in Python float64, then
rounded to the model's dtype (`row` returns the rounded values as Python floats). A call stacks its rows'
values, so the answer for a row is bit-identical whether the learner asks one beam at a time or all beams at
once, and a search written over `row` (the references, the margin runs: no torch ops per step) sees exactly the
numbers the learner's code sees. Rows may hold any int64 tokens (pads after an eos included). Rows are
memoised per model (`rows(seqs)` looks the model's memo up once for a batch; the least recently used models' rows
go once more than `_MEMO` rows are held), so several conventions' runs of one case pay for each row once.

The callable raises TypeError for anything but an int64 tensor [N, L'] (N ≥ 1, L' ≥ 1) on its device (the
device case and the simulated GPU catch a `torch.tensor(list)` made without `device=` through it), and it
never records anything: the beam katas judge what comes back, not how the model was called.

The margin rule (`Margins`, `redraw`)

A reference run records, in a `Margins`, the relative gap of every comparison its answer depends on:

    margins = Margins()
    margins.ranked(scores, n)    # the candidates' raw scores of one step: consecutive gaps among the top n + 1
    margins.ranked(finals)       # final scores that are ranked (the finished list): every consecutive gap
    margins.pair(a, b)           # one comparison (a stop test: best possible vs worst finished)
    margins.smallest             # the smallest relative gap recorded (inf when none)

    margins.ranked(top, n, ordered=True)   # the same, for scores already sorted best first (no sort)

Other helpers: `rows_of(log_prob_fn or BeamModel, seqs)` (rows as Python floats, no torch op for a case model),
`gap(a, b)`, `final_score(raw, n, length_penalty)` (raw / n ** length_penalty with torch's float semantics at
n = 0: ±inf or nan, never ZeroDivisionError).

The relative gap of a and b is |a − b| / max(1, |a|, |b|) (`gap`): scores are sums of up to 20 log-probs, so a
float32 accumulation is off by far less than GAP = 1e-4 of max(1, |score|). `redraw(g, build, runs)` draws seeds
until every run's margins are ≥ GAP (and an optional predicate on the answers holds): with it, no near-tie is
decided by rounding, tie order is free, and float32 or float64 accumulation both pass.

This module is imported by checker/specs/beam_search.py and checker/specs/beam_search_hf.py; keep its API
stable (additions are fine).
"""
from __future__ import annotations

import math
import zlib
from array import array
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

import torch

from checker.text.i18n import tr

GAP = 1e-4  # the smallest relative gap a case's reference runs may depend on (the contract's margin rule)
_MEMO = 20_000  # rows kept per process (a case's five conventions and its mistakes share them)
_ROWS: "OrderedDict[BeamModel, dict[tuple, tuple[float, ...]]]" = OrderedDict()  # model -> its rows, oldest first
_COUNT = 0  # the rows held in _ROWS


_MASK = 2**16 - 1
_STRIDE = 40_503  # odd: a row's V entries are V distinct table entries
_NORMALS: list[float] = []


def _normals() -> list[float]:
    """2**16 standard normals, the same in every process (torch's generator, seed 0), drawn on first use."""
    if not _NORMALS:
        _NORMALS.extend(torch.randn(_MASK + 1, generator=torch.Generator().manual_seed(0), dtype=torch.float64).tolist())
    return _NORMALS


@dataclass(frozen=True)
class BeamModel:
    """What a case says about its model. `row` is the model; `build` makes the callable the learner is handed."""

    seed: int
    vocab: int
    prompt_len: int
    eos: int | None = None  # the token whose logit grows with the length (None: no bias anywhere)
    eos_bias: float = 0.0  # its logit's offset for the prompt alone …
    eos_slope: float = 0.0  # … and its growth per generated token
    scale: float = 1.0  # the other logits' spread (large: a peaked model)
    dtype: torch.dtype = torch.float32

    def __str__(self) -> str:
        dtype = str(self.dtype).removeprefix("torch.")
        if self.eos is None:
            return tr("log-prob model, vocabulary {V}, {dtype}", V=self.vocab, dtype=dtype)
        return tr("log-prob model, vocabulary {V}, {dtype}, token {eos} likelier with length", V=self.vocab,
                  dtype=dtype, eos=self.eos)

    def row(self, tokens: Sequence[int]) -> tuple[float, ...]:
        """The log-probs [V] after `tokens` (the whole row: prompt, then generated tokens), as Python floats equal
        to the values the callable returns (rounded to the model's dtype)."""
        return self.rows((tokens,))[0]

    def rows(self, seqs: Iterable[Sequence[int]]) -> list[tuple[float, ...]]:
        """`row` of each of `seqs`, the model's memo looked up once for them all."""
        global _COUNT
        memo = _ROWS.get(self)
        if memo is None:
            memo = _ROWS[self] = {}
        else:
            _ROWS.move_to_end(self)
        out = []
        for tokens in seqs:
            key = tuple(tokens)
            value = memo.get(key)
            if value is None:
                value = memo[key] = self._row(key)
                _COUNT += 1
            out.append(value)
        while _COUNT > _MEMO and len(_ROWS) > 1:
            _COUNT -= len(_ROWS.popitem(last=False)[1])
        return out

    def _row(self, tokens: tuple[int, ...]) -> tuple[float, ...]:
        crc = zlib.crc32(array("q", tokens).tobytes(), self.seed & 0xFFFFFFFF)
        normals = _normals()
        start = (crc ^ (self.seed >> 32)) & _MASK
        scale = self.scale  # entry j is normals[(start + _STRIDE · j) & _MASK]
        logits = [scale * normals[i & _MASK] for i in range(start, start + _STRIDE * self.vocab, _STRIDE)]
        if self.eos is not None:
            logits[self.eos] += self.eos_bias + self.eos_slope * max(0, len(tokens) - self.prompt_len)
        top = max(logits)
        norm = top + math.log(math.fsum([math.exp(x - top) for x in logits]))
        values = [x - norm for x in logits]
        if self.dtype == torch.float32:
            values = array("f", values).tolist()  # rounded to float32, exactly as .to(float32) rounds
        return tuple(values)

    def build(self, device: torch.device) -> "LogProbFn":
        return LogProbFn(self, device)


class LogProbFn:
    """The callable handed to the learner: `fn(seqs)`, seqs int64 [N, L'] on `device`, returns [N, V] log-probs in
    the model's dtype on `device`. `fn.model` is its BeamModel (the references read rows through it)."""

    __slots__ = ("model", "device")

    def __init__(self, model: BeamModel, device: torch.device):
        self.model, self.device = model, torch.device(device)

    def __repr__(self) -> str:
        return f"log_prob_fn({self.model})"

    def __call__(self, seqs: Any) -> torch.Tensor:
        if not isinstance(seqs, torch.Tensor):
            raise TypeError(tr("log_prob_fn was called with {what}; it takes an int64 tensor [N, L'] (one row per "
                               "hypothesis, the prompt included)", what=type(seqs).__name__))
        if seqs.dim() != 2 or seqs.shape[0] == 0 or seqs.shape[1] == 0:
            raise TypeError(tr("log_prob_fn was called with a tensor of shape {shape}; it takes int64 [N, L'] with "
                               "N ≥ 1 and L' ≥ 1 (one prompt is [1, L])", shape=tuple(seqs.shape)))
        if seqs.dtype != torch.int64:
            raise TypeError(tr("log_prob_fn was called with {dtype} tokens; token ids are int64",
                               dtype=str(seqs.dtype).removeprefix("torch.")))
        if seqs.device != self.device:
            raise TypeError(tr("log_prob_fn was called with tokens on {device}, the prompt is on {model}: make every "
                               "tensor on input_ids' device", device=seqs.device, model=self.device))
        rows = self.model.rows(seqs.tolist())
        return torch.tensor(rows, dtype=self.model.dtype, device=self.device)


def rows_of(log_prob_fn: Any, seqs: Iterable[Sequence[int]]) -> list[tuple[float, ...]]:
    """Log-probs of each row as Python floats: through the model's `row` when `log_prob_fn` is a LogProbFn or a
    BeamModel (no torch op), else by calling it on the stacked rows (any other callable, e.g. a test's)."""
    seqs = [tuple(s) for s in seqs]
    model = log_prob_fn if isinstance(log_prob_fn, BeamModel) else getattr(log_prob_fn, "model", None)
    if isinstance(model, BeamModel):
        return model.rows(seqs)
    device = getattr(log_prob_fn, "device", "cpu")
    out = log_prob_fn(torch.tensor(seqs, dtype=torch.int64, device=device))
    return [tuple(r) for r in out.double().tolist()]


# ---------------------------------------------------------------- the margin rule


def gap(a: float, b: float) -> float:
    """The relative gap of two scores: |a − b| / max(1, |a|, |b|) (inf when both are -inf)."""
    if a == b == -math.inf:
        return math.inf
    return abs(a - b) / max(1.0, abs(a), abs(b))


class Margins:
    """The smallest relative gap among the comparisons a reference run's answer depends on."""

    __slots__ = ("smallest", "where")

    def __init__(self) -> None:
        self.smallest = math.inf
        self.where = ""  # what the smallest gap was between, in words (for tests and messages)

    def pair(self, a: float, b: float, where: str = "") -> None:
        d = gap(a, b)
        if d < self.smallest:
            self.smallest, self.where = d, where

    def ranked(self, scores: Iterable[float], n: int | None = None, where: str = "", ordered: bool = False) -> None:
        """Scores that are sorted and cut after n (None: all ranked): consecutive gaps among the top n + 1.
        ordered: the scores are sorted already, best first (saves the sort)."""
        ordered = list(scores) if ordered else sorted(scores, reverse=True)
        if n is not None:
            ordered = ordered[:n + 1]
        smallest = self.smallest
        for a, b in zip(ordered, ordered[1:]):  # `pair` inlined (the margin runs make tens of thousands)
            if a == b == -math.inf:
                continue
            d = abs(a - b) / max(1.0, abs(a), abs(b))
            if d < smallest:
                smallest = self.smallest = d
                self.where = where

    def __bool__(self) -> bool:  # a Margins passed as `margins=` is always on, even before anything is recorded
        return True


def redraw(g: torch.Generator, build: Callable[[int], Any], runs: Sequence[Callable[[Any, Margins], Any]],
           want: Callable[[list], bool] | None = None, tries: int = 400, minimum: float = GAP,
           fallback: Callable[[int], Any] | None = None) -> tuple[Any, list]:
    """Draw model seeds from `g` until every run is ≥ `minimum` from every tie (and `want(answers)` holds).

    build(seed) -> a case (whatever the runs take); runs: each (case, margins) -> its answer, recording its gaps in
    margins. Returns (case, answers). After `tries` draws without `want`, the predicate is dropped (the margin rule
    never is) and `fallback(seed)` (or `build`) makes the case; a RuntimeError if the margin rule itself cannot be
    met.
    """
    for attempt in range(tries + 200):
        seed = int(torch.randint(0, 2**62, (1,), generator=g))
        late = attempt >= tries
        case = (fallback or build)(seed) if late else build(seed)
        answers = []
        ok = True
        for run in runs:
            margins = Margins()
            answers.append(run(case, margins))
            if margins.smallest < minimum:
                ok = False
                break
        if ok and (want is None or late or want(answers)):
            return case, answers
    raise RuntimeError("no case within the margin rule")  # pragma: no cover


def final_score(raw: float, n: int, length_penalty: float) -> float:
    """raw / n ** length_penalty, as torch divides floats (n = 0 gives ±inf or nan, not ZeroDivisionError): what a
    mistake that counts no tokens for an eos at the first step computes."""
    try:
        denominator = float(n) ** length_penalty
    except ZeroDivisionError:  # 0 ** negative
        denominator = math.inf
    if denominator == 0.0:
        return math.copysign(math.inf, raw) if raw != 0 else math.nan
    return raw / denominator
