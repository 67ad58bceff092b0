"""The model `greedy-generate` hands the learner: a tiny causal LM with Hugging Face's calling convention,
and the recorder that writes down every call the learner's decode loop makes.

`TinyLM` is one layer, one head: token embedding plus interleaved sinusoidal positions, causal attention
over a functional (k, v) cache, a residual, and an LM head (vocabulary 23). Its weights are a function of
a case's seed; it computes in float32 or float64 on the run device. It is called as a `transformers`
causal LM is:

    out = model(input_ids, past_key_values=None)      # or model(input_ids, past), model(input_ids=…)
    logits, past = out                                # a named tuple: out.logits, out.past_key_values

`past` is a `Cache` the model made; the next call hands it back and the model reads the positions from
it (a cache of length P puts the new tokens at P, P + 1, …). Nothing is modified in place: each call
returns a new cache, so the recorder can tell which call's cache came back.

The learner's code may call it with anything: every misuse raises a `ValueError` that says what the
call was and what the model takes, never a traceback from inside torch.

The record of the calls is not the model's to hold: the learner's loop has the model object, and a loop that
ignores the cache could write itself a clean record (`model.calls = …`). It lives in `_RECORDS`, keyed by the
model, which `calls_of` reads; the model has fixed slots, so an attribute written on it fails loudly.
"""
from __future__ import annotations

import math
import weakref
from dataclasses import dataclass
from typing import Any, NamedTuple

import torch

from checker.text.i18n import tr

VOCAB = 23
WIDTH = 16
# Columns of the call record: rows passed, tokens per row passed, the call whose cache came back (-1: none).
RECORD = ("rows", "tokens", "cache_of")


@dataclass(frozen=True)
class TinyLMSpec:
    """What a case says about its model: the weights' seed, the dtype, and an optional exact tie (token
    `tie[1]`'s logit is a copy of token `tie[0]`'s, tie[0] < tie[1], so argmax's first index is tie[0])."""

    seed: int
    dtype: torch.dtype = torch.float32
    tie: tuple[int, int] | None = None

    def __str__(self) -> str:
        dtype = str(self.dtype).removeprefix("torch.")
        if self.tie is None:
            return tr("a 1-layer causal LM, vocabulary {V}, {dtype}", V=VOCAB, dtype=dtype)
        return tr("a 1-layer causal LM, vocabulary {V}, {dtype}, tokens {a} and {b} tied", V=VOCAB, dtype=dtype,
                  a=self.tie[0], b=self.tie[1])

    def weights(self) -> dict[str, torch.Tensor]:
        g = torch.Generator().manual_seed(self.seed)

        def draw(*shape: int, scale: float) -> torch.Tensor:
            return torch.randn(*shape, generator=g, dtype=torch.float64) * scale

        return {"embed": draw(VOCAB, WIDTH, scale=1.0), "wq": draw(WIDTH, WIDTH, scale=0.5),
                "wk": draw(WIDTH, WIDTH, scale=0.5), "wv": draw(WIDTH, WIDTH, scale=0.5),
                "wo": draw(WIDTH, WIDTH, scale=0.25), "head": draw(VOCAB, WIDTH, scale=1.0)}


class CausalLMOutput(NamedTuple):
    """What a call returns: unpacks as (logits, past_key_values), or read by name."""

    logits: torch.Tensor
    past_key_values: Any


class Cache:
    """The model's (k, v) cache: keys and values [B, P, WIDTH] of the P positions seen so far. Opaque to the
    learner: it is handed back as it came. `made_by` is the index of the call that returned it."""

    __slots__ = ("key", "value", "made_by", "owner")

    def __init__(self, key: torch.Tensor, value: torch.Tensor, made_by: int, owner: int):
        self.key, self.value, self.made_by, self.owner = key, value, made_by, owner

    def __len__(self) -> int:
        return self.key.shape[1]

    def get_seq_length(self) -> int:  # what a transformers Cache answers
        return self.key.shape[1]

    def __repr__(self) -> str:
        return f"Cache(length {self.key.shape[1]}, from call {self.made_by})"


_TABLES: dict[torch.dtype, torch.Tensor] = {}  # the CPU's
_TABLE_LENGTH = 256  # more than any case's prompt and new tokens together


def positions(start: int, length: int, dtype: torch.dtype, device: torch.device) -> torch.Tensor:
    """Interleaved sinusoidal positions [length, WIDTH] for positions start … start + length − 1: rows of one
    table per dtype, computed once (a check makes about a thousand model calls)."""
    if start + length > _TABLE_LENGTH or device.type != "cpu":  # a (simulated) GPU's are made fresh
        return _positions(start, length, dtype, device)
    table = _TABLES.get(dtype)
    if table is None:
        table = _TABLES[dtype] = _positions(0, _TABLE_LENGTH, dtype, device)
    return table[start:start + length]


def _positions(start: int, length: int, dtype: torch.dtype, device: torch.device) -> torch.Tensor:
    p = torch.arange(start, start + length, dtype=torch.float64, device=device)[:, None]  # (l, 1)
    freq = torch.exp(torch.arange(0, WIDTH, 2, dtype=torch.float64, device=device) * (-math.log(10000.0) / WIDTH))
    angle = p * freq  # (l, WIDTH/2)
    return torch.stack((angle.sin(), angle.cos()), dim=-1).reshape(length, WIDTH).to(dtype)


class TinyLM:
    """The model the learner's loop calls; `calls_of(model)` is the record of each call as (rows, tokens per row,
    the call whose cache was passed or -1), in order."""

    __slots__ = ("spec", "device", "dtype", "embed", "wq", "wk", "wv", "wo", "head", "_id", "__weakref__")

    def __init__(self, spec: TinyLMSpec, device: torch.device):
        self.spec, self.device, self.dtype = spec, device, spec.dtype
        w = {k: v.to(device=device, dtype=spec.dtype) for k, v in spec.weights().items()}
        self.embed = w["embed"]
        # The projections as [in, out], transposed once (a check makes about a thousand calls); the query's
        # carries attention's 1/√WIDTH, a power of two, so the scores are bitwise those of scaling them after.
        self.wq = (w["wq"] / math.sqrt(WIDTH)).T.contiguous()
        self.wk, self.wv, self.wo, self.head = (w[k].T.contiguous() for k in ("wk", "wv", "wo", "head"))
        _RECORDS[self] = []
        self._id = id(self)

    def __repr__(self) -> str:
        return f"TinyLM({self.spec})"

    def __call__(self, *args: Any, **kwargs: Any) -> CausalLMOutput:
        input_ids, past = self._arguments(args, kwargs)
        B, l = self._check_ids(input_ids)
        start = 0
        if past is not None:
            if not isinstance(past, Cache) or past.owner != self._id:
                raise ValueError(tr("the model was called with past_key_values that is {what}; it takes None or the cache "
                                    "a call of this model returned, unchanged", what=_what(past)))
            if past.key.shape[0] != B:
                raise ValueError(tr("the model was called with {B} rows of input_ids and a cache of {rows}: every call "
                                    "passes all the batch's rows", B=B, rows=past.key.shape[0]))
            start = len(past)
        calls = _RECORDS[self]
        calls.append((B, l, -1 if past is None else past.made_by))
        with torch.no_grad():
            logits, key, value = self._forward(input_ids, past, start)
        return CausalLMOutput(logits, Cache(key, value, len(calls) - 1, self._id))

    def _arguments(self, args: tuple, kwargs: dict) -> tuple[Any, Any]:
        if len(args) > 2:
            raise ValueError(tr("the model was called with {n} positional arguments; it takes (input_ids, "
                                "past_key_values)", n=len(args)))
        names = ("input_ids", "past_key_values")
        given = dict(zip(names, args))
        for name, value in kwargs.items():
            if name in ("use_cache", "return_dict"):  # accepted and ignored, as transformers' models take them
                continue
            if name in ("past", "cache"):  # older spellings people use for the cache
                raise ValueError(tr("the model was called with an argument named {name}; the cache is passed as "
                                    "past_key_values= (or second, by position)", name=repr(name)))
            if name not in names:
                raise ValueError(tr("the model was called with an unknown argument {name}; it takes input_ids and "
                                    "past_key_values (use_cache is accepted and ignored)", name=repr(name)))
            if name in given:
                raise ValueError(tr("the model was called with {name} twice, by position and by keyword", name=name))
            given[name] = value
        if "input_ids" not in given:
            raise ValueError(tr("the model was called without input_ids"))
        return given["input_ids"], given.get("past_key_values")

    def _check_ids(self, ids: Any) -> tuple[int, int]:
        if not isinstance(ids, torch.Tensor):
            raise ValueError(tr("the model was called with input_ids that is {what}; it takes an int64 tensor "
                                "[B, l]", what=_what(ids)))
        if ids.dim() != 2 or ids.shape[0] == 0 or ids.shape[1] == 0:
            raise ValueError(tr("the model was called with input_ids of shape {shape}; it takes [B, l] with B ≥ 1 "
                                "and l ≥ 1 (a [B] tensor of new tokens needs [:, None])", shape=tuple(ids.shape)))
        if ids.dtype != torch.int64:
            raise ValueError(tr("the model was called with input_ids of dtype {dtype}; token ids are int64",
                                dtype=str(ids.dtype).removeprefix("torch.")))
        if ids.device != self.embed.device:
            raise ValueError(tr("the model was called with input_ids on {device}, the model is on {model}: make "
                                "new tokens on the prompt's device", device=ids.device, model=self.embed.device))
        low, high = torch.aminmax(ids)
        low, high = int(low), int(high)
        if low < 0 or high >= VOCAB:
            raise ValueError(tr("the model was called with token id {id}, outside the vocabulary 0 … {last}",
                                id=low if low < 0 else high, last=VOCAB - 1))
        return ids.shape[0], ids.shape[1]

    def _forward(self, ids: torch.Tensor, past: Cache | None, start: int):
        B, l = ids.shape
        x = self.embed[ids] + positions(start, l, self.dtype, ids.device)  # (B, l, C)
        q, k, v = x @ self.wq, x @ self.wk, x @ self.wv  # (B, l, C); q already scaled by 1/√C
        if past is not None:
            k = torch.cat((past.key, k), dim=1)  # (B, P + l, C)
            v = torch.cat((past.value, v), dim=1)
        scores = q @ k.transpose(1, 2)  # (B, l, P + l)
        if l > 1:  # one new token sees every key: nothing to mask
            query_pos = torch.arange(start, start + l, device=ids.device)[:, None]
            key_pos = torch.arange(start + l, device=ids.device)[None, :]
            scores = scores.masked_fill(key_pos > query_pos, float("-inf"))
        h = x + (torch.softmax(scores, dim=-1) @ v) @ self.wo  # (B, l, C)
        logits = h @ self.head  # (B, l, V)
        if self.spec.tie is not None:
            a, b = self.spec.tie
            logits[..., b] = logits[..., a]
        return logits, k, v


# Each model's calls, kept out of the model object the learner's code holds (see the module's docstring).
_RECORDS: "weakref.WeakKeyDictionary[TinyLM, list[tuple[int, int, int]]]" = weakref.WeakKeyDictionary()


def calls_of(model: TinyLM) -> list[tuple[int, int, int]]:
    """The calls `model` was given, in order: (rows, tokens per row, the call whose cache was passed or -1)."""
    return list(_RECORDS.get(model, ()))


def _what(value: Any) -> str:
    if isinstance(value, torch.Tensor):
        return tr("a tensor of shape {shape}", shape=tuple(value.shape))
    if isinstance(value, (tuple, list)):
        return tr("a {type} of {n}", type=type(value).__name__, n=len(value))
    return tr("a {type}", type=type(value).__name__)


def free_run(spec: TinyLMSpec, input_ids: torch.Tensor, steps: int) -> tuple[torch.Tensor, float]:
    """Greedy tokens [B, steps] of the model in float64 (no eos), and the smallest gap between the chosen
    logit and the next distinct one along the way: the spec keeps cases whose choices no rounding can flip.
    The model's own forward, without the checks and the record of a learner's call (this is kata's loop)."""
    model = TinyLM(TinyLMSpec(spec.seed, torch.float64, spec.tie), torch.device("cpu"))
    with torch.no_grad():
        logits, key, value = model._forward(input_ids, None, 0)
        chosen, gaps = [], []
        for step in range(steps):
            last = logits[:, -1, :]  # (B, V)
            if spec.tie is not None:
                last = last.clone()
                last[:, spec.tie[1]] = -math.inf  # the tied copy is not a rival
            top2 = last.topk(2, dim=-1).values
            gaps.append(top2[:, 0] - top2[:, 1])
            token = last.argmax(dim=-1, keepdim=True)  # (B, 1)
            chosen.append(token)
            if step + 1 < steps:
                logits, key, value = model._forward(token, Cache(key, value, -1, -1), key.shape[1])
    return torch.cat(chosen, dim=1), float(torch.cat(gaps).min())
