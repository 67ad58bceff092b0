"""Case families for `kv-cache`. A case is a schedule: x [B, T, C], the lengths of the calls that
split it (`chunks`), optionally a cache the module never made (`past_kv[0]`, `past_kv[1]`) and a
second continuation of the first call's cache (`x_branch`, beam search). The `call` hook runs the
schedule, threading the module's own returned cache into its next call, and checks that no call
changed the cache it was given; every call's output and the final caches are compared, by name
("out of call 3", "k cache"). Gradients only where the schedule is a single call."""
from __future__ import annotations

import math
import sys

import torch
import torch.nn as nn

from checker.judge import spec as spec_api
from checker.judge.compare import compare_outcome
from checker.text.i18n import tr
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake, Outcome
from checker.specs._attention import (
    BAD_DIMS, bad_dims, call_module, compare_module, expected_in_float32, linear_params, pick, randint, randn,
)
from checker.specs._state import structure as _describe
from checker.specs._state import unchanged

CHUNKS, BRANCH = "chunks", "x_branch"
PAST = ("past_kv[0]", "past_kv[1]")
INPLACE = "caches changed in place"  # extras: ((call, 0 or 1), ...) for every cache a call modified


def _case(B=2, H=2, hd=3, chunks=(6,), past=0, branch=0, dtype=torch.float32, grads=True):
    """chunks: the length of each call; past: the length of a given cache (0 = none); branch: the
    length of a second call continuing the first call's cache."""
    C = H * hd

    def make(g: torch.Generator) -> Inputs:
        args = {"x": randn(g, B, sum(chunks), C, dtype=dtype), CHUNKS: tuple(chunks)}
        if past:
            args[PAST[0]], args[PAST[1]] = randn(g, B, H, past, hd, dtype=dtype), randn(g, B, H, past, hd, dtype=dtype)
        if branch:
            args[BRANCH] = randn(g, B, branch, C, dtype=dtype)
        want = grads and len(chunks) == 1 and not branch and dtype in (torch.float32, torch.float64)
        return Inputs(args=args, init={"embed_dim": C, "num_heads": H}, params=linear_params(g, C),
                      grad_of=(("x",) + (PAST if past else ())) if want else (),
                      probe=randn(g, B, chunks[0], C) if want else None, show={"embed_dim": C, "num_heads": H})
    return make


def _random(g: torch.Generator) -> Inputs:
    H, hd, B = randint(g, 1, 4), randint(g, 1, 5), randint(g, 1, 3)
    chunks, left = [], randint(g, 1, 9)
    while left:
        n = pick(g, [1, 1, randint(g, 1, left)]) if chunks else randint(g, 1, left)
        chunks.append(min(n, left))
        left -= chunks[-1]
    past = pick(g, [0, 0, randint(g, 1, 5)])
    branch = randint(g, 1, 3) if randint(g, 1, 6) == 1 else 0
    dtype = torch.float64 if randint(g, 1, 5) == 1 else torch.float32
    return _case(B, H, hd, tuple(chunks), past, branch, dtype)(g)


FAMILIES = (
    Family("prefill_only", _case(chunks=(6,))),
    Family("prefill_then_steps", _case(chunks=(5, 1, 1, 1))),
    Family("chunked_prefill", _case(chunks=(3, 2, 4))),
    Family("token_by_token", _case(chunks=(1, 1, 1, 1, 1))),
    Family("given_cache", _case(chunks=(3,), past=4)),
    Family("given_cache_decode_step", _case(chunks=(1,), past=5)),
    Family("given_cache_then_steps", _case(chunks=(3, 1, 1), past=4)),
    Family("branching", _case(chunks=(4, 2), branch=2)),
    Family("branching_steps", _case(chunks=(3, 1, 1), branch=1)),
    Family("branching_given_cache", _case(chunks=(2, 1), past=3, branch=1)),
    Family("float64", _case(chunks=(4, 2, 1), dtype=torch.float64)),
    Family("float64_gradients", _case(chunks=(5,), past=3, dtype=torch.float64)),
    Family("float16", _case(hd=4, chunks=(4, 1, 1), dtype=torch.float16)),
    Family("bfloat16", _case(hd=4, chunks=(3, 3, 1), dtype=torch.bfloat16)),
    Family("head_dim_one", _case(H=4, hd=1, chunks=(3, 1, 2))),
    Family("one_head", _case(H=1, hd=6, chunks=(4, 1, 1))),
    Family("four_heads", _case(B=3, H=4, hd=3, chunks=(2, 3, 1))),
    Family("batch_one", _case(B=1, chunks=(3, 1, 1))),
    Family("indivisible_dims", bad_dims(10, 4)),
    Family("device", _case(chunks=(4, 1, 1), past=2), track_device=True),
    Family("device_no_cache", _case(chunks=(4, 1, 1)), track_device=True),
    Family("random", _random, draws=85),
)


# ---------------------------------------------------------------- running a schedule


def call(kata, entry, inputs: Inputs, device: torch.device, track_device: bool = False) -> Outcome:
    """Build the module, then call it chunk by chunk as a decoder would, threading its own cache."""
    if BAD_DIMS in inputs.show:
        return call_module(kata, entry, inputs, device)
    args = {name: spec_api.place(value, device) for name, value in inputs.args.items()}
    x = args["x"]
    module = entry(**inputs.init)
    module = module if x.dtype == torch.float32 else spec_api.convert(module, x.dtype)
    if inputs.params is not None:
        spec_api.load_params(module, inputs.params)
    module.to(device).eval()
    for name in inputs.grad_of:  # single-call cases: x and a given cache are leaves of the graph
        args[name] = args[name].detach().requires_grad_(True)
    run = _Schedule(kata, module, device, track_device, inputs.simulate)
    final = run.thread(args, inputs, ("k cache", "v cache"))
    if final is None:
        return run.malformed
    run.extras[INPLACE] = tuple(run.changed)
    written = {name: args[name] for name in ("x", BRANCH) if name in args}  # the engine checks these for writes
    return Outcome(_kept(final), run.extras, written)


def _kept(pair) -> tuple[torch.Tensor, torch.Tensor]:
    """A copy of what a call returned: a later call cannot change what was recorded."""
    return tuple(t.detach().clone() for t in pair)


class _Schedule:
    """One module's calls: each one run as the default protocol runs a call (device tracking
    included), its output recorded, and the cache it was given compared before and after."""

    def __init__(self, kata, module: nn.Module, device: torch.device, track_device: bool, simulate: str | None = None):
        self.kata, self.module, self.device, self.track_device = kata, module, device, track_device
        self.simulate = simulate  # the case's simulated device: each call runs there, the reference's too
        self.lengths: list[int] = []
        self.extras: dict = {}
        self.changed: list[tuple[int, int]] = []
        self.malformed: Outcome | None = None

    def thread(self, args: dict, inputs: Inputs, names: tuple[str, str]):
        """Call the module on x chunk by chunk (the case's CHUNKS), each call given the cache the one before returned
        (a given cache first) and the gradients taken where the case asks; then the first call's cache continued a
        second time where the case has a branch (its caches kept under `names`). The last cache of the chain, or
        None when a call returned something malformed (`self.malformed` says what)."""
        x = args["x"]
        cache = (args[PAST[0]], args[PAST[1]]) if PAST[0] in args else None
        first = None
        for n in inputs.args[CHUNKS]:
            start = sum(self.lengths)
            value = self.step(x[:, start:start + n], cache)
            if value is None:
                return None
            if inputs.grad_of:
                self.extras.update(spec_api.gradients(value, args, inputs, self.module, self.device))
            cache = value[1]
            first = cache if first is None else first
        if BRANCH in args:  # the first call's cache, continued a second time
            value = self.step(args[BRANCH], first)
            if value is None:
                return None
            n = len(self.lengths)
            self.extras[f"{names[0]} after call {n}"], self.extras[f"{names[1]} after call {n}"] = _kept(value[1])
        return cache

    def step(self, x: torch.Tensor, cache):
        n = len(self.lengths) + 1
        before = None if cache is None else [(tuple(t.shape), t.detach().clone()) for t in cache]
        # train=None: the module stays in the mode it was put in (eval), not set again at every call (a walk over
        # every submodule: an eighth of an mla check's CPU)
        inputs = Inputs(args={"x": x, "past_kv": cache}, simulate=self.simulate, train=None)
        value = spec_api.call(self.kata, lambda: self.module, inputs, self.device, self.track_device).value
        self.lengths.append(x.size(1))
        if before is not None:
            for i, (shape, saved) in enumerate(before):
                if not unchanged(cache[i], shape, saved.dtype, saved):
                    self.changed.append((n, i))
        if not _well_formed(value):
            self.malformed = Outcome({"call": n, "returned": _describe(value)})
            return None
        self.extras[f"out of call {n}"] = value[0].detach().clone()
        return value


def _well_formed(value) -> bool:
    """(out, (k, v)), three tensors."""
    return (isinstance(value, (tuple, list)) and len(value) == 2 and isinstance(value[0], torch.Tensor)
            and isinstance(value[1], (tuple, list)) and len(value[1]) == 2
            and all(isinstance(t, torch.Tensor) for t in value[1]))


def expected(kata, entry, inputs: Inputs, device: torch.device) -> list[Outcome]:
    """The reference runs the same schedule (float16/bfloat16: in float32, rounded once)."""
    if BAD_DIMS in inputs.show:
        return [call_module(kata, entry, inputs, device)]
    return expected_in_float32(lambda i: call(kata, entry, i, device), inputs)


def compare(kata, case, expected: list[Outcome], got: Outcome) -> list[Problem]:
    if BAD_DIMS in case.inputs.show:
        return compare_module(kata, case, expected, got)
    if isinstance(got.value, dict):
        return [Problem("structure", "", tr("call {n} returned {what}; forward must return (out, (k, v)): "
                                            "the output and a tuple of the two full caches",
                                            n=got.value.get("call"), what=got.value.get("returned")))]
    want = Outcome(expected[0].value, {k: v for k, v in expected[0].extras.items() if k != INPLACE})
    problems = compare_outcome(kata, sys.modules[__name__], case, want, got)
    allowed = set(expected[0].extras.get(INPLACE, ()))  # the reference changes nothing; a known mistake may
    changed = [(n, i) for n, i in got.extras.get(INPLACE, ()) if (n, i) not in allowed]
    if changed:
        problems.append(_inplace_problem(changed))
    if allowed - set(got.extras.get(INPLACE, ())):
        problems.append(Problem("inplace", "past_kv", tr("your code leaves the caches it is given as they were")))
    return problems


def _inplace_problem(changed: list[tuple[int, int]]) -> Problem:
    """One problem for every write into a given cache: which tensors, in which call first, and later ones."""
    first = changed[0][0]
    names = ", ".join(f"past_kv[{i}]" for n, i in changed if n == first)
    later = sorted({n for n, _ in changed if n != first})
    message = tr("your code changed {names}, the cache given to call {n}, in place (a write, an in-place op or "
                 "its .data): build the new cache as a new tensor (torch.cat) and leave the caller's as it was — "
                 "a caller may continue the same cache twice (beam search)", names=names, n=first)
    if later:
        message += tr("; the caches given to calls {calls} were changed too", calls=", ".join(map(str, later)))
    items = {i for _, i in changed}
    return Problem("inplace", f"past_kv[{items.pop()}]" if len(items) == 1 else "past_kv", message)


# ---------------------------------------------------------------- known mistakes


class _Cached(nn.Module):
    """The right computation with switches, one per known mistake."""

    mask = "offset"  # "offset" (right), "none", or "top_left" (tril without the cache offset)
    cat_dim = 2
    return_new_only = False
    grow_in_place = False
    prescale_k = False
    new_first = False
    scale_by_embed_dim = False
    stateful = False

    def __init__(self, embed_dim, num_heads):
        super().__init__()
        assert embed_dim % num_heads == 0
        self.H, self.hd = num_heads, embed_dim // num_heads
        self.w_q, self.w_k = nn.Linear(embed_dim, embed_dim), nn.Linear(embed_dim, embed_dim)
        self.w_v, self.w_o = nn.Linear(embed_dim, embed_dim), nn.Linear(embed_dim, embed_dim)

    def forward(self, x, past_kv=None):
        B, L, C = x.shape
        split = lambda t: t.view(B, L, self.H, self.hd) if self.cat_dim == 1 else t.view(B, L, self.H, self.hd).transpose(1, 2)  # noqa: E731
        q = self.w_q(x).view(B, L, self.H, self.hd).transpose(1, 2)
        k_new, v_new = split(self.w_k(x)), split(self.w_v(x))
        if self.prescale_k:
            k_new = k_new / math.sqrt(self.hd)
        k, v = k_new, v_new
        if self.stateful and past_kv is not None and getattr(self, "_state", None) is not None:
            past_kv = self._state  # its own memory of the last call, whatever cache it is given
        if past_kv is not None:
            pair = (lambda a, b: (b, a)) if self.new_first else (lambda a, b: (a, b))
            k, v = torch.cat(pair(past_kv[0], k_new), self.cat_dim), torch.cat(pair(past_kv[1], v_new), self.cat_dim)
            if self.grow_in_place:
                past_kv[0].data, past_kv[1].data = k.detach(), v.detach()
                k, v = past_kv
        ka, va = (k.transpose(1, 2), v.transpose(1, 2)) if self.cat_dim == 1 else (k, v)  # (B, H, P+L, hd)
        T = ka.size(2)
        scores = q @ ka.transpose(-2, -1) / math.sqrt(C if self.scale_by_embed_dim else 1 if self.prescale_k else self.hd)
        if self.mask != "none":
            mask = torch.ones(L, T, dtype=torch.bool, device=x.device).tril(T - L if self.mask == "offset" else 0)
            scores = scores.masked_fill(~mask, float("-inf"))
        y = torch.softmax(scores, dim=-1) @ va
        out = self.w_o(y.transpose(1, 2).reshape(B, L, C))
        if self.stateful:
            self._state = (k.detach(), v.detach())
        return out, ((k_new, v_new) if self.return_new_only else (k, v))


def _variant(**switches):
    return type("Variant", (_Cached,), switches)


MISTAKES = (
    Mistake("no_causal_mask", _variant(mask="none")),
    Mistake("mask_ignores_cache", _variant(mask="top_left")),
    Mistake("cache_on_wrong_dim", _variant(cat_dim=1)),
    Mistake("only_new_keys_returned", _variant(return_new_only=True)),
    Mistake("cache_changed_in_place", _variant(grow_in_place=True)),
    Mistake("cache_prescaled", _variant(prescale_k=True)),
    Mistake("new_keys_first", _variant(new_first=True)),
    Mistake("scaled_by_embed_dim", _variant(scale_by_embed_dim=True)),
    Mistake("module_keeps_state", _variant(stateful=True)),
)


def _bench(g: torch.Generator) -> Inputs:
    B, P, steps, C, H = 1, 256, 256, 512, 8
    return Inputs(args={"x": torch.randn(B, P + steps, C, generator=g), CHUNKS: (P,) + (1,) * steps},
                  init={"embed_dim": C, "num_heads": H}, params=linear_params(g, C))


# `kata check kv-cache --bench`: a prefill, then one decode step per token, each step on the cache.
BENCH = ("B = 1, C = 512, H = 8: prefill 256 tokens, then 256 decode steps", _bench)
