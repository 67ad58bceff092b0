"""Case families for `speculative-decoding`: one verification step, with the outcome of every draft chosen by
the case (accepted or rejected at chosen positions) and the uniforms drawn to force it.

Each row's draft distributions q_i are random (flat, peaked, or equal to the target's), x_i is drawn from
q_i, and the target p_i is then moved, where needed, so that the ratio r = p_i(x_i) / q_i(x_i) allows the
wanted outcome with room: an accepted draft gets u in (0, min(r, 1)) and a rejected one u in (r, 1), each
at least 2 % of its interval (and far more than 1e-6) away from r, computed from the probabilities as the
learner receives them (after rounding to the case's dtype). So `<=` or `<`, `u·q <= p` or `u <= p/q`, all
pass. Families: mixed outcomes, all accepted (the bonus row), the first rejected, an acceptance after a
rejection (not counted), rows with every outcome in one batch, target = draft (ratio exactly 1), a target
probability of 0 at the drafted token, ratios above 1, K = 1 accepted and rejected, V = 2, peaked
distributions, B = 1, float64, random draws and the device case.

Compared: num_accepted exactly, next_probs at the dtype's tolerance; a failing row is said with its
ratios, uniforms and which drafts the contract accepts.
"""
from __future__ import annotations

import sys

import torch
from rich.cells import cell_len

from checker.judge.compare import compare_outcome, split_outputs
from checker.text.i18n import tr
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake
from checker.specs._rl import pick, randint, uniform


def _row(g: torch.Generator, V: int, kind: str) -> torch.Tensor:
    scale = {"flat": 1.0, "peaked": 6.0}[kind]
    return torch.softmax(torch.randn(V, generator=g, dtype=torch.float64) * scale, dim=-1)


def _set_ratio(p: torch.Tensor, q: torch.Tensor, x: int, ratio: float) -> torch.Tensor:
    """p with p(x) = ratio · q(x) (capped below 1), the other entries rescaled so the row still sums to 1."""
    t = min(ratio * float(q[x]), 0.999)
    rest = 1.0 - float(p[x])
    out = p * ((1.0 - t) / rest) if rest > 0 else torch.full_like(p, (1.0 - t) / (len(p) - 1))
    out[x] = t
    return out


def _draw(g: torch.Generator, B: int, K: int, V: int, pattern: object = "random", *, kind: str = "flat",
          dtype: torch.dtype = torch.float32, equal: bool = False, zero: bool = False, above_one: bool = False) -> Inputs:
    """pattern: "random" (each draft accepted with probability 0.6), a string of A/R for every row, or a list
    of such strings, one per row. equal: p_i = q_i (ratio 1, always accepted); zero: p_i(x_i) = 0 where a
    draft is rejected; above_one: ratios in (1.2, 3) where a draft is accepted."""
    rows = pattern if isinstance(pattern, list) else [pattern] * B
    q = torch.stack([torch.stack([_row(g, V, kind) for _ in range(K)]) for _ in range(B)])  # (B, K, V)
    p = torch.stack([torch.stack([_row(g, V, kind) for _ in range(K + 1)]) for _ in range(B)])  # (B, K+1, V)
    x = torch.multinomial(q.reshape(B * K, V), 1, generator=g).reshape(B, K)  # (B, K) x_i ~ q_i
    want = [[(row[i] if row != "random" else ("A" if uniform(g, 0, 1) < 0.6 else "R")) for i in range(K)]
            for row in rows]
    for b in range(B):
        for i in range(K):
            xi = int(x[b, i])
            if equal:
                p[b, i] = q[b, i]
                want[b][i] = "A"
                continue
            r = float(p[b, i, xi] / q[b, i, xi])
            if want[b][i] == "A" and (above_one or r < 0.05):
                p[b, i] = _set_ratio(p[b, i], q[b, i], xi, uniform(g, 1.2, 3.0) if above_one else uniform(g, 0.3, 2.0))
            elif want[b][i] == "R" and (zero or r > 0.95):
                p[b, i] = _set_ratio(p[b, i], q[b, i], xi, 0.0 if zero else uniform(g, 0.0, 0.8))
    q, p = q.to(dtype), p.to(dtype)
    index = x[..., None]
    ratio = p[:, :K].double().gather(-1, index).squeeze(-1) / q.double().gather(-1, index).squeeze(-1)  # as received
    u = torch.empty(B, K, dtype=torch.float64)
    for b in range(B):
        for i in range(K):
            r = float(ratio[b, i])
            a = uniform(g, 0.02, 0.98)
            if want[b][i] == "A" or r >= 1.0:
                want[b][i] = "A"
                u[b, i] = max(min(r, 1.0) * a, 1e-4)  # u <= r with room (r >= 1: any u in (0, 1) is accepted)
            else:
                u[b, i] = r + (1.0 - r) * a
    u = u.to(dtype)
    gap = (u.double() - ratio).abs()
    assert bool((gap > 1e-6).all()), "a uniform sits on its ratio"
    return Inputs(args={"draft_tokens": x, "draft_probs": q, "target_probs": p, "uniforms": u})


def _case(B: int, K: int, V: int, pattern: object = "random", **kw):
    return lambda g: _draw(g, B, K, V, pattern, **kw)


def _outcomes(K: int):
    """One row per outcome: rejected at 0, 1, …, K − 1, then all accepted."""
    return ["A" * n + "R" + "A" * (K - n - 1) for n in range(K)] + ["A" * K]


def _random(g: torch.Generator) -> Inputs:
    K = randint(g, 1, 6)
    return _draw(g, randint(g, 1, 5), K, pick(g, [2, 3, 8, 29, 50]), pick(g, ["random", "random", "A" * K]),
                 kind=pick(g, ["flat", "flat", "peaked"]), dtype=pick(g, [torch.float32, torch.float32, torch.float64]),
                 zero=pick(g, [False, False, True]))


FAMILIES = (
    Family("mixed_outcomes", _case(4, 4, 12)),
    Family("all_accepted", _case(3, 4, 10, "AAAA")),
    Family("first_rejected", _case(3, 4, 10, "RAAA")),
    Family("accept_after_reject", _case(3, 5, 10, "ARAAA")),
    Family("rejected_in_the_middle", _case(3, 5, 10, "AARAR")),
    Family("rows_with_every_outcome", _case(5, 4, 10, _outcomes(4))),
    Family("target_equals_draft", _case(3, 4, 10, equal=True)),
    Family("target_zero_at_draft", _case(3, 4, 10, "ARAA", zero=True)),
    Family("target_zero_first", _case(2, 3, 8, "RAA", zero=True)),
    Family("ratio_above_one", _case(3, 4, 10, "AAAA", above_one=True)),
    Family("ratio_above_one_then_reject", _case(3, 4, 10, "AARA", above_one=True)),
    Family("k1_accepted", _case(4, 1, 10, "A")),
    Family("k1_rejected", _case(4, 1, 10, "R")),
    Family("vocab_two", _case(4, 3, 2)),
    Family("vocab_two_rejected", _case(4, 3, 2, "ARA")),
    Family("peaked", _case(4, 4, 16, kind="peaked")),
    Family("peaked_rejected", _case(4, 4, 16, "AARA", kind="peaked")),
    Family("batch_of_one", _case(1, 4, 10)),
    Family("batch_of_one_all_accepted", _case(1, 3, 10, "AAA")),
    Family("large_vocab", _case(3, 5, 1000, "ARAAR")),
    Family("float64", _case(4, 4, 12, dtype=torch.float64)),
    Family("float64_all_accepted", _case(3, 4, 12, "AAAA", dtype=torch.float64)),
    Family("float64_rows_with_every_outcome", _case(4, 3, 12, _outcomes(3), dtype=torch.float64)),
    Family("random", _random, draws=77),
    Family("device", _case(3, 4, 10, ["RAAA", "AARA", "AAAA"]), track_device=True),
)


# ---------------------------------------------------------------- how a case is judged


def compare(kata, case, expected, got):
    """The generic comparison, and for a wrong num_accepted, the first wrong row said with its ratios."""
    problems = compare_outcome(kata, sys.modules[__name__], case, expected[0], got)
    if not problems:
        return problems
    want, _ = split_outputs(kata, expected[0].value)
    have, _ = split_outputs(kata, got.value)
    mine = getattr(have.get("num_accepted"), "data", None) if have else None
    right = want["num_accepted"].data
    if mine is None or tuple(mine.shape) != tuple(right.shape):
        return problems
    wrong = (mine.cpu().long() != right).nonzero()
    if len(wrong):
        b = int(wrong[0])
        lines = row_lines(case.inputs.args, b, int(right[b]), int(mine[b]))
        problems = [Problem(p.kind, p.item, p.message + "\n" + lines) if p.item == "num_accepted" else p
                    for p in problems]
    return problems


def row_lines(args: dict, b: int, right: int, yours: int) -> str:
    """Row b's drafts in a few short lines: each ratio p/q, its uniform, and whether the contract accepts it."""
    x = args["draft_tokens"][b]
    K = x.shape[0]
    p = args["target_probs"][b, :K].double().gather(-1, x[:, None]).squeeze(-1)
    q = args["draft_probs"][b].double().gather(-1, x[:, None]).squeeze(-1)
    u = args["uniforms"][b].double()
    head = tr("row {b}: num_accepted is {yours}, expected {right}", b=b, yours=yours, right=right)
    cells = [["i", "p/q", "u", ""]]
    for i in range(min(K, 8)):
        r = float(p[i] / q[i])
        mark = tr("accept") if float(u[i]) <= r else tr("reject")
        cells.append([str(i), f"{r:.4g}", f"{float(u[i]):.4g}", mark])
    widths = [max(cell_len(c[j]) for c in cells) for j in range(3)]
    lines = [head]
    for c in cells:
        lines.append("  " + "  ".join(c[j] + " " * (widths[j] - cell_len(c[j])) for j in range(3)) + "  " + c[3])
    lines.append("  " + tr("a draft is accepted iff u ≤ p/q; the first rejection ends the step"))
    return "\n".join(lines).rstrip()


# ---------------------------------------------------------------- known mistakes


def _verify(x, q_all, p_all, u, *, inverted=False, every=False, compare_flipped=False, ratio_row=0, argmax=False,
            residual="clamped", bonus=True):
    """residual: "clamped" (the contract), "negative" (p − q over its positive mass), "unnormalised",
    "reversed" (max(0, q − p)), "target" (p_n itself)."""
    B, K = x.shape
    rows = torch.arange(B, device=x.device)
    tok = q_all.argmax(-1) if argmax else x  # (B, K)
    p = p_all[:, ratio_row:ratio_row + K].gather(-1, tok[..., None]).squeeze(-1)
    q = q_all.gather(-1, tok[..., None]).squeeze(-1)
    r = q / p if inverted else p / q
    ok = u > r if compare_flipped else u <= r
    n = ok.long().sum(-1) if every else ok.long().cumprod(-1).sum(-1)
    at = n.clamp(max=K - 1)
    pn, qn = p_all[rows, at], q_all[rows, at]
    if residual == "target":
        res = pn
    elif residual == "reversed":
        res = (qn - pn).clamp(min=0)
        res = res / res.sum(-1, keepdim=True)
    elif residual == "negative":
        d = pn - qn
        res = d / d.clamp(min=0).sum(-1, keepdim=True)
    elif residual == "unnormalised":
        res = (pn - qn).clamp(min=0)
    else:
        res = (pn - qn).clamp(min=0)
        res = res / res.sum(-1, keepdim=True)
    last = p_all[:, K] if bonus else p_all[:, K - 1]
    return n, torch.where((n == K)[:, None], last, res)


def _variant(**switches):
    def speculative_verify(draft_tokens, draft_probs, target_probs, uniforms):
        return _verify(draft_tokens, draft_probs, target_probs, uniforms, **switches)
    return speculative_verify


MISTAKES = (
    Mistake("ratio_inverted", _variant(inverted=True)),
    Mistake("comparison_flipped", _variant(compare_flipped=True)),
    Mistake("every_accept_counted", _variant(every=True)),
    Mistake("residual_not_clamped", _variant(residual="negative")),
    Mistake("residual_not_normalised", _variant(residual="unnormalised")),
    Mistake("residual_reversed", _variant(residual="reversed")),
    Mistake("residual_is_target", _variant(residual="target")),
    Mistake("no_bonus_row", _variant(bonus=False)),
    Mistake("ratio_at_next_row", _variant(ratio_row=1)),
    Mistake("ratio_at_draft_argmax", _variant(argmax=True)),
)


def _bench(g: torch.Generator) -> Inputs:
    B, K, V = 64, 8, 32000
    q = torch.softmax(torch.randn(B, K, V, generator=g) * 3, dim=-1)
    p = torch.softmax(torch.randn(B, K + 1, V, generator=g) * 3, dim=-1)
    x = torch.multinomial(q.reshape(B * K, V), 1, generator=g).reshape(B, K)
    return Inputs(args={"draft_tokens": x, "draft_probs": q, "target_probs": p, "uniforms": torch.rand(B, K, generator=g)})


# `kata check speculative-decoding --bench`: 64 sequences, 8 drafts each, a 32000-token vocabulary.
BENCH = ("B = 64, K = 8, V = 32000", _bench)
