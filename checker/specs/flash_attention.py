"""Case families for `flash-attention`: Lq = Lk, Lq < Lk and Lq > Lk, causal (bottom-right) or not,
one query, block sizes of 1, larger than Lk, not dividing Lk and the default, Dv ≠ D, D = 1, query
counts that tile badly, scores in the hundreds, float64 and half precision, and the memory rule:
the memory_* cases run under a watch of what the call materialises (checker/specs/_flash.py), and
their two shapes make a full score matrix and a full row per query too big to pass. The other cases
test values and run unwatched: the watch sees every aten op, and cost most of a check's time when
every case ran under it."""
from __future__ import annotations

import math
import sys
from dataclasses import dataclass, replace
from typing import Any

import torch

from checker.judge import spec as spec_api
from checker.judge.compare import compare_outcome
from checker.text.i18n import tr
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake
from checker.specs import _flash
from checker.specs._attention import pick, randint, randn

DEFAULT_BLOCK = 64
MEMORY = "memory"  # Outcome.extras: "ok", "fused", or "<n> elements" (the largest storage mixing q and k)
DETAIL = "memory detail"  # Outcome.extras: what the report shows (never compared)
OK = "ok"
BAR = 30  # characters of the longest bar in the picture


@dataclass
class MemoryInputs(Inputs):
    """A case of the memory rule: `call` runs it under the watch."""


def _case(B=2, H=2, Lq=16, Lk=None, D=8, Dv=None, block_size=8, causal=False, *, dtype=torch.float32, scale=1.0, tol=None,
          watched=False):
    """block_size / causal None: left out of the call (the defaults 64 and False). watched: a memory case."""
    def make(g: torch.Generator) -> Inputs:
        lk, dv = Lk or Lq, Dv or D
        args: dict[str, Any] = {"q": randn(g, B, H, Lq, D, dtype=dtype, scale=scale),
                                "k": randn(g, B, H, lk, D, dtype=dtype, scale=scale), "v": randn(g, B, H, lk, dv, dtype=dtype)}
        if block_size is not None:
            args["block_size"] = block_size
        if causal is not None:
            args["causal"] = causal
        return (MemoryInputs if watched else Inputs)(args=args, tol=tol)
    return make


def _random(g: torch.Generator) -> Inputs:
    B, H, Lq, Lk = randint(g, 1, 2), randint(g, 1, 3), randint(g, 1, 40), randint(g, 1, 48)
    causal = Lq <= Lk and randint(g, 0, 1) == 1
    D = pick(g, [1, 4, 8, 8, 16, 16, 32])
    Dv = pick(g, [D, randint(g, 1, 16)])
    block = pick(g, [4, 5, 8, 16, 16, 32, 100])  # at most 12 blocks: every key block is one more pass under the watch
    dtype = pick(g, [torch.float32, torch.float32, torch.float32, torch.float64])
    return _case(B, H, Lq, Lk, D, Dv, block, causal, dtype=dtype, scale=pick(g, [1.0, 1.0, 3.0]))(g)


MEMORY_LONG = dict(B=1, H=2, Lq=256, Lk=1024, D=16, block_size=32)  # bound 16 384; a full score matrix 524 288
MEMORY_DECODE = dict(MEMORY_LONG, Lq=2)  # bound 128; one full row per query 2 048

FAMILIES = (
    Family("square", _case(Lq=24, block_size=8)),
    Family("square_causal", _case(Lq=24, block_size=8, causal=True)),
    Family("lq_lt_lk", _case(Lq=10, Lk=37, block_size=8)),
    Family("lq_lt_lk_causal", _case(Lq=10, Lk=37, block_size=8, causal=True)),
    Family("lq_gt_lk", _case(Lq=30, Lk=12, block_size=5)),
    Family("decode", _case(Lq=1, Lk=45, block_size=8)),
    Family("decode_causal", _case(Lq=1, Lk=45, block_size=8, causal=True)),
    Family("block_size_one", _case(Lq=5, Lk=9, block_size=1)),
    Family("block_size_one_causal", _case(Lq=6, Lk=9, block_size=1, causal=True)),
    Family("block_larger_than_lk", _case(Lq=6, Lk=20, block_size=50)),
    Family("block_not_dividing", _case(Lq=12, Lk=50, block_size=16)),
    Family("block_not_dividing_causal", _case(Lq=50, block_size=16, causal=True)),
    Family("default_block_size", _case(B=1, Lq=8, Lk=200, block_size=None, causal=None)),
    Family("default_block_size_causal", _case(B=1, Lq=150, block_size=None, causal=True)),
    Family("dv_gt_d", _case(Lq=12, Lk=20, D=8, Dv=24)),
    Family("dv_lt_d", _case(Lq=12, Lk=20, D=16, Dv=3, causal=True)),
    Family("head_dim_one", _case(Lq=9, Lk=17, D=1, Dv=4, block_size=4)),
    Family("query_tiles_causal", _case(Lq=37, Lk=53, block_size=16, causal=True)),
    Family("query_tiles_square_causal", _case(Lq=45, block_size=16, causal=True)),
    Family("large_scores", _case(Lq=12, Lk=40, block_size=8, scale=8.0, tol=(1e-3, 1e-4))),
    Family("large_scores_causal", _case(Lq=20, Lk=40, block_size=8, causal=True, scale=8.0, tol=(1e-3, 1e-4))),
    Family("float64", _case(Lq=10, Lk=30, block_size=8, dtype=torch.float64)),
    Family("float64_causal", _case(Lq=10, Lk=30, block_size=8, causal=True, dtype=torch.float64)),
    Family("float16", _case(Lq=16, Lk=40, block_size=8, dtype=torch.float16)),
    Family("float16_causal", _case(Lq=16, Lk=40, block_size=8, causal=True, dtype=torch.float16)),
    Family("bfloat16", _case(Lq=16, Lk=40, block_size=8, causal=True, dtype=torch.bfloat16)),
    Family("memory_long", _case(**MEMORY_LONG, watched=True)),
    Family("memory_long_causal", _case(**MEMORY_LONG, causal=True, watched=True)),
    Family("memory_decode", _case(**MEMORY_DECODE, watched=True)),
    Family("memory_decode_causal", _case(**MEMORY_DECODE, causal=True, watched=True)),
    Family("device", _case(Lq=12, Lk=20, block_size=8, causal=True), track_device=True),
    Family("device_defaults", _case(Lq=12, Lk=20, block_size=None, causal=None), track_device=True),
    Family("random", _random, draws=72),
)


# ---------------------------------------------------------------- hooks: the memory rule


def call(kata: Any, entry: Any, inputs: Inputs, device: torch.device, track_device: bool = False) -> spec_api.Outcome:
    """The default protocol; on a memory case, with the call watched: what it materialised goes into the extras."""
    if not isinstance(inputs, MemoryInputs):
        return spec_api.call(kata, entry, inputs, device, track_device)
    seen: list[_flash.Watched] = []

    def watched(**args: Any) -> Any:
        value, what = _flash.watch(lambda: entry(**args), {name: args[name] for name in ("q", "k", "v")})
        seen.append(what)
        return value

    outcome = spec_api.call(kata, watched, inputs, device, track_device)
    verdict, detail = judge(seen[0], inputs)
    outcome.extras = {**outcome.extras, MEMORY: verdict, DETAIL: detail}
    return outcome


def judge(what: _flash.Watched, inputs: Inputs) -> tuple[str, dict[str, Any]]:
    """("ok" / "fused" / "<n> elements", what the report needs to draw it)."""
    q, k, v = (inputs.args[n] for n in ("q", "k", "v"))
    block = inputs.args.get("block_size", DEFAULT_BLOCK)
    B, H, Lq, _ = q.shape
    detail = {"bound": _flash.bound(q, v, block), "full": B * H * Lq * k.shape[2], "B": B, "H": H, "Lq": Lq,
              "Lk": k.shape[2], "Dv": v.shape[-1], "block_size": block, "fused": what.fused}
    made = what.largest
    if made is not None:
        detail.update(elements=made.elements, shape=list(made.shape), dtype=made.dtype, op=made.op, mixes=list(made.mixes))
    if what.fused is not None:
        return "fused", detail
    if made is not None and made.elements > detail["bound"]:
        return f"{made.elements} elements", detail
    return OK, detail


def expected(kata: Any, entry: Any, inputs: Inputs, device: torch.device) -> list[spec_api.Outcome]:
    """The reference, unwatched (it is tiled by construction; the tests prove it keeps the rule)."""
    outcome = spec_api.call(kata, entry, inputs, device)
    return [spec_api.Outcome(outcome.value, {MEMORY: OK} if isinstance(inputs, MemoryInputs) else {}, outcome.args)]


def compare(kata: Any, case: spec_api.Case, expected: list[spec_api.Outcome], got: spec_api.Outcome) -> list[Problem]:
    """The values as usual, then the memory rule, drawn."""
    spec = sys.modules[kata.spec_module]
    values = [replace(e, extras={}) for e in expected]
    problems = min((compare_outcome(kata, spec, case, e, got) for e in values), key=len)
    return problems + memory_problems(got.extras.get(MEMORY), got.extras.get(DETAIL))


def memory_problems(verdict: Any, detail: Any) -> list[Problem]:
    if verdict == OK or not isinstance(detail, dict):
        return []
    if verdict == "fused":
        return [Problem("rule", MEMORY, tr("a fused attention kernel ran ({op}): the scores it computes inside cannot be "
                                           "watched, and this kata is about writing them block by block yourself",
                                           op=detail["fused"]))]
    d = detail
    made, allowed, full = d["elements"], d["bound"], d["full"]
    longest = max(made, full)
    lines = [
        tr("memory rule: one tensor held {made} values computed from both q and k; at most {allowed} are allowed",
           made=f"{made:,}", allowed=f"{allowed:,}"),
        tr("  yours    {dtype} {shape} made by {op}, from {mixes}", dtype=d["dtype"], shape=d["shape"], op=d["op"],
           mixes=", ".join(d["mixes"])),
        f"           {_bar(made, longest)} {made:,}",
        tr("  allowed  B·H·Lq·max(block_size, Dv) = {B}·{H}·{Lq}·max({block}, {Dv})", B=d["B"], H=d["H"], Lq=d["Lq"],
           block=d["block_size"], Dv=d["Dv"]),
        f"           {_bar(allowed, longest)} {allowed:,}",
        tr("  full     a full score matrix [B, H, Lq, Lk] = [{B}, {H}, {Lq}, {Lk}]", B=d["B"], H=d["H"], Lq=d["Lq"], Lk=d["Lk"]),
        f"           {_bar(full, longest)} {full:,}",
        tr("Stream over blocks of at most block_size keys, keeping only [B, H, Lq, block_size] scores and the [B, H, Lq, Dv] "
           "accumulator at a time. A buffer filled in place counts at its full size, and so do torch.cat([q, k]) and a "
           "broadcast [Lq, block, Dv] product."),
    ]
    return [Problem("rule", MEMORY, "\n".join(lines))]


def _bar(n: int, longest: int) -> str:
    return "█" * (max(1, round(BAR * n / longest)) if longest else 1)


def bench_note(kata: Any, entry: Any, inputs: Inputs, device: torch.device) -> str:
    """`kata check --bench`: the call's memory next to what the full score matrix would take."""
    args = {name: spec_api.place(value, device) for name, value in inputs.args.items()}
    _, what = _flash.watch(lambda: entry(**args), {n: args[n] for n in ("q", "k", "v")}, keep_alive=False)
    _, detail = judge(what, replace(inputs, args=args))
    size = args["q"].element_size()
    made = what.largest.elements if what.largest is not None else 0
    return tr("memory: largest tensor mixing q and k {made} elements ({made_mib} MiB), a full score matrix {full} "
              "({full_mib} MiB, {times}× more); peak of the tensors computed from q, k, v at once {peak} MiB",
              made=f"{made:,}", made_mib=f"{made * size / 2**20:.1f}", full=f"{detail['full']:,}",
              full_mib=f"{detail['full'] * size / 2**20:.1f}", times=f"{detail['full'] / max(made, 1):.0f}",
              peak=f"{what.peak_bytes / 2**20:.1f}")


# ---------------------------------------------------------------- known mistakes


def _online(*, rescale_sum=True, rescale_out=True, subtract_max=True, divide_each_block=False, fixed_block=None,
            top_left=False, scaled=True, hide_diagonal=False, fill="-inf", carry_max=True, mask_after_exp=False):
    """The right streaming computation with switches, one per known mistake. `fill`: "-inf" or "min"
    (finfo.min: a row with every key hidden averages them); `carry_max=False`: each block's own
    max, nothing rescaled across blocks; `mask_after_exp`: the exponential of the scores times the causal mask (an overflowed
    hidden score makes inf · 0 = NaN)."""
    def flash_attention(q, k, v, block_size=64, causal=False):
        B, H, Lq, D = q.shape
        Lk, Dv = k.shape[2], v.shape[-1]
        block = fixed_block or block_size
        acc = torch.promote_types(q.dtype, torch.float32)
        qs = q.to(acc) * (1 / math.sqrt(D) if scaled else 1.0)
        hidden = torch.finfo(acc).min if fill == "min" else -math.inf
        m = torch.full((B, H, Lq, 1), hidden if subtract_max else 0.0, dtype=acc, device=q.device)
        l = torch.zeros((B, H, Lq, 1), dtype=acc, device=q.device)
        o = torch.zeros((B, H, Lq, Dv), dtype=acc, device=q.device)
        rows = torch.arange(Lq, device=q.device).unsqueeze(-1) + (0 if top_left else Lk - Lq)
        for start in range(0, Lk, block):
            kb, vb = k[:, :, start:start + block].to(acc), v[:, :, start:start + block].to(acc)
            s = qs @ kb.transpose(-2, -1)
            visible = None
            if causal:
                keys = torch.arange(start, start + kb.shape[2], device=q.device)
                visible = keys < rows if hide_diagonal else keys <= rows
                s = s if mask_after_exp else s.masked_fill(~visible, hidden)
            if not carry_max:
                m_new = s.amax(-1, keepdim=True).nan_to_num(0.0, neginf=0.0)
                p = torch.exp(s - m_new)
                l, o = l + p.sum(-1, keepdim=True), o + p @ vb
                continue
            m_new = torch.maximum(m, s.amax(-1, keepdim=True)) if subtract_max else m
            alpha = torch.exp(m - m_new).nan_to_num(0.0)  # a row with no key yet (top-left) keeps 0
            p = torch.exp(s - m_new)
            p = p.nan_to_num(0.0) if subtract_max else p  # without the max, exp overflows to inf, as the file's does
            p = p * visible if mask_after_exp and visible is not None else p
            l = (alpha * l if rescale_sum else l) + p.sum(-1, keepdim=True)
            o = (alpha * o if rescale_out else o) + p @ vb
            if divide_each_block:
                o = o / l
            m = m_new
        return (o if divide_each_block else o / l).to(q.dtype)
    return flash_attention


def _per_block_softmax(mean: bool = False):
    """Each key block's own softmax, the blocks' outputs added up (or averaged): no block knows the others."""
    def flash_attention(q, k, v, block_size=64, causal=False):
        Lq, Lk = q.shape[2], k.shape[2]
        acc = torch.promote_types(q.dtype, torch.float32)
        o = torch.zeros(*q.shape[:3], v.shape[-1], dtype=acc, device=q.device)
        rows = torch.arange(Lq, device=q.device).unsqueeze(-1) + (Lk - Lq)
        blocks = range(0, Lk, block_size)
        for start in blocks:
            kb, vb = k[:, :, start:start + block_size].to(acc), v[:, :, start:start + block_size].to(acc)
            s = q.to(acc) @ kb.transpose(-2, -1) / math.sqrt(q.shape[-1])
            if causal:
                s = s.masked_fill(torch.arange(start, start + kb.shape[2], device=q.device) > rows, -math.inf)
            o = o + torch.softmax(s, dim=-1).nan_to_num(0.0) @ vb
        return (o / len(blocks) if mean else o).to(q.dtype)
    return flash_attention


def _full_matrix(q, k, v, block_size=64, causal=False):
    """Plain attention: the [B, H, Lq, Lk] scores at once (right values, wrong memory)."""
    Lq, Lk = q.shape[2], k.shape[2]
    s = q.to(torch.promote_types(q.dtype, torch.float32)) @ k.transpose(-2, -1).to(torch.promote_types(q.dtype, torch.float32))
    s = s / math.sqrt(q.shape[-1])
    if causal:
        s = s.masked_fill(torch.ones(Lq, Lk, dtype=torch.bool, device=q.device).tril(Lk - Lq).logical_not(), -math.inf)
    return (torch.softmax(s, dim=-1) @ v.to(s.dtype)).to(q.dtype)


def _per_query_rows(q, k, v, block_size=64, causal=False):
    """One query at a time, with the full softmax over all Lk keys of its row (no online softmax)."""
    Lq, Lk = q.shape[2], k.shape[2]
    outs = []
    for i in range(Lq):
        out = _full_matrix(q[:, :, i:i + 1], k[:, :, :Lk - Lq + i + 1] if causal else k, v[:, :, :Lk - Lq + i + 1] if causal else v)
        outs.append(out)
    return torch.cat(outs, dim=2)


def _query_tiles_only(q, k, v, block_size=64, causal=False):
    """Tiles of block_size queries, each against every key at once."""
    Lq, Lk = q.shape[2], k.shape[2]
    outs = []
    for start in range(0, Lq, block_size):
        qb = q[:, :, start:start + block_size]
        s = qb.to(torch.promote_types(q.dtype, torch.float32)) @ k.transpose(-2, -1).to(torch.promote_types(q.dtype, torch.float32))
        s = s / math.sqrt(q.shape[-1])
        if causal:
            rows = torch.arange(start, start + qb.shape[2], device=q.device).unsqueeze(-1) + (Lk - Lq)
            s = s.masked_fill(torch.arange(Lk, device=q.device) > rows, -math.inf)
        outs.append(torch.softmax(s, dim=-1) @ v.to(s.dtype))
    return torch.cat(outs, dim=2).to(q.dtype)


MISTAKES = (
    Mistake("no_rescale", _online(rescale_sum=False, rescale_out=False)),
    Mistake("output_not_rescaled", _online(rescale_out=False)),
    Mistake("sum_not_rescaled", _online(rescale_sum=False)),
    Mistake("divided_every_block", _online(divide_each_block=True)),
    Mistake("max_not_subtracted", _online(subtract_max=False)),
    Mistake("top_left_causal", _online(top_left=True)),
    Mistake("not_scaled", _online(scaled=False)),
    Mistake("full_row_per_query", _per_query_rows),  # before the full matrix: with Lq = 1 they are the same tensor
    Mistake("full_score_matrix", _full_matrix),
    Mistake("queries_tiled_keys_not", _query_tiles_only),
    Mistake("block_size_ignored", _online(fixed_block=DEFAULT_BLOCK)),
    Mistake("causal_hides_diagonal", _online(hide_diagonal=True)),
    Mistake("causal_hides_diagonal", _online(hide_diagonal=True, fill="min")),
    Mistake("max_not_subtracted", _online(subtract_max=False, mask_after_exp=True)),
    Mistake("max_not_carried", _online(carry_max=False)),
    Mistake("blocks_normalised_separately", _per_block_softmax()),
    Mistake("blocks_normalised_separately", _per_block_softmax(mean=True)),
)

# `kata check flash-attention --bench`: a 4k causal context, with the memory it took.
BENCH = ("B = 1, H = 4, Lq = Lk = 4096, D = 64, block_size 128, causal",
         lambda g: Inputs(args={"q": torch.randn(1, 4, 4096, 64, generator=g), "k": torch.randn(1, 4, 4096, 64, generator=g),
                                "v": torch.randn(1, 4, 4096, 64, generator=g), "block_size": 128, "causal": True}))
