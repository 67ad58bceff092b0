"""Hand-built check results, one per failure kind, rendered by tests/app/test_reports_golden.py.

Built from plain Python (no torch, no engine run) so the text is the same on every machine. The
numbers are real: each "got" is what the named mistake computes on the case's inputs.

A representative set is also rendered in Chinese at 60, 80 and 200 columns (`*_zh_<width>`): the
messages go through tr() with the msgids checker/judge/compare.py and the renderers use, and the kata's
text (title, family, mistake) comes from its content/<kata>/zh.toml, as `kata --lang zh check` shows.
"""
from __future__ import annotations

import math
import struct
from dataclasses import dataclass

from checker.text import i18n
from checker.text.i18n import plural, tr
from checker.judge.results import CaseResult, CheckResult, LearnerError, Mismatch, Problem, Status, TensorInfo

F32 = (1e-4, 1e-5)


@dataclass(frozen=True)
class Golden:
    result: CheckResult
    width: int = 80
    verbose: bool = False
    lang: str = i18n.ENGLISH


# ---------------------------------------------------------------- plain-Python helpers


def shape(x):
    out = []
    while isinstance(x, list):
        out.append(len(x))
        x = x[0] if x else None
    return tuple(out)


def flat_items(x, prefix=()):
    if isinstance(x, list):
        for i, v in enumerate(x):
            yield from flat_items(v, (*prefix, i))
    else:
        yield prefix, x


def mismatch(expected, got, rtol=0.0, atol=0.0) -> Mismatch:
    pairs = [(ix, e, g) for (ix, e), (_, g) in zip(flat_items(expected), flat_items(got))]
    if rtol == 0 and atol == 0:
        bad = [p for p in pairs if p[1] != p[2]]
    else:
        bad = [p for p in pairs if not (abs(p[2] - p[1]) <= atol + rtol * abs(p[1]))]  # NaN is never close

    def diff(p):
        d = abs(float(p[2]) - float(p[1]))
        return math.inf if d != d else d

    by_abs = max(pairs, key=diff)
    by_rel = max(pairs, key=lambda p: diff(p) / max(abs(float(p[1])), 1e-30))
    return Mismatch(len(bad), len(pairs), diff(by_abs), by_abs[0], diff(by_rel) / max(abs(float(by_rel[1])), 1e-30),
                    by_rel[0], rtol, atol, tuple(bad[:5]))


def values_problem(item, expected, got, rtol=0.0, atol=0.0, kind="values") -> Problem:
    m = mismatch(expected, got, rtol, atol)
    if kind == "precision":  # the msgids of checker/judge/compare.py, so that a Chinese golden reads as kata says it
        scale = max(abs(v) for _, v in flat_items(expected))
        message = tr("{item} is close, but not float64-precise: every difference is at float32 rounding level (at most "
                     "{share} of the values); part of your computation runs in float32 (a .float(), or a constant such "
                     "as torch.tensor(gamma) made in the default float32)", item=item, share=f"{m.max_abs / scale:.1e}")
    elif kind == "nonfinite":
        message = plural(m.mismatched, "{item} has {n} {kind} value where the expected value is finite, at {index}",
                         "{item} has {n} {kind} values where the expected values are finite, first at {index}", item=item,
                         kind="NaN", index=m.first[0][0])
    elif rtol == 0 and atol == 0:
        message = tr("{item} differs in {n} of {total} places", item=item, n=m.mismatched, total=m.total)
    else:
        message = tr("{item} differs: {n} of {total} values are out of tolerance", item=item, n=m.mismatched, total=m.total)
    return Problem(kind, item, message, m, expected, got)


def info(name, value, dtype="float32") -> TensorInfo:
    if isinstance(value, list):
        return TensorInfo(name, shape(value), dtype, value)
    return TensorInfo(name, None, type(value).__name__, value)


def case(name, about, problems=(), inputs=(), status=Status.FAIL, **kw) -> CaseResult:
    family = name.split(".")[0]
    return CaseResult(name, family, about, status, tuple(problems), tuple(inputs),
                      reproduce=f"kata check demo --seed 7 --case {name}", **kw)


def passing(name, about="passes") -> CaseResult:
    return CaseResult(name, name.split(".")[0], about, Status.PASS)


def result(kata, title, cases, status=Status.FAIL, **kw) -> CheckResult:
    return CheckResult(kata=kata, title=title, file=f"{kata.replace('-', '_')}.py", device="cpu", seed=7,
                       status=status, cases=tuple(cases), seconds=0.5, **kw)


def r4(x):
    return [r4(v) for v in x] if isinstance(x, list) else (round(x, 6) if isinstance(x, float) else x)


# What a kata says (title, a family's description, a mistake's label and fix) is its text: in English
# the goldens keep their own words; in Chinese they take the kata's zh.toml, as a real check would.


def _text(kata: str):
    from checker.text import catalog

    return catalog.get(kata).text(i18n.current())


def title(kata: str, english: str) -> str:
    return english if i18n.current() == i18n.ENGLISH else _text(kata).title


def about(kata: str, family: str, english: str, chinese: str | None = None) -> str:
    """The family's description; `chinese` where the golden's hand-made inputs differ from the family's own."""
    if i18n.current() == i18n.ENGLISH:
        return english
    return chinese or _text(kata).families[family]


def mistake(kata: str, key: str, label: str, hint: str) -> dict:
    if i18n.current() == i18n.ENGLISH:
        return dict(mistake=label, mistake_hint=hint)
    text = _text(kata).mistakes[key]
    return dict(mistake=text.label, mistake_hint=text.fix)


# ---------------------------------------------------------------- masks


def offset_mask(L, S, offset=True):
    return [[j <= (S + i if offset else i) for j in range(S + L)] for i in range(L)]


def mask_offset() -> Golden:
    expected, got = offset_mask(4, 3), offset_mask(4, 3, offset=False)
    c = case("basic", about("offset-causal-mask", "basic", "4 new queries after 3 cached keys: [4, 7]"),
             [values_problem("mask", expected, got)],
             [info("seq_len", 4), info("start_pos", 3), TensorInfo("device", None, "device", "the run device")
              if i18n.current() == i18n.ENGLISH else TensorInfo("device", None, "run device", None)],
             **mistake("offset-causal-mask", "start_pos_ignored", "start_pos ignored in the comparison",
                       "query i sits at absolute position start_pos + i: compare j <= start_pos + i"))
    return Golden(result("offset-causal-mask", title("offset-causal-mask", "Causal mask with a KV-cache offset"),
                         [c, passing("decode_step")]))


def causal(L, diagonal=0, upper=False):
    return [[(j >= i + diagonal) if upper else (j <= i + diagonal) for j in range(L)] for i in range(L)]


def mask_batched_diagonal() -> Golden:
    B, H, L = 2, 3, 6
    expected = [[causal(L) for _ in range(H)] for _ in range(B)]
    got = [[causal(L, -1) if (b, h) != (0, 0) else causal(L) for h in range(H)] for b in range(B)]  # slice [0, 0] right
    c = case("basic", "B = 2, H = 3, L = 6 on the run device",
             [values_problem("mask", expected, got)],
             [info("batch_size", B), info("n_head", H), info("seq_len", L)],
             mistake="diagonal left out", mistake_hint="each query sees itself: tril with the default diagonal=0")
    return Golden(result("causal-mask", "Batched causal mask", [c]))


def mask_transposed() -> Golden:
    expected, got = causal(5), causal(5, upper=True)
    c = case("basic", "L = 5", [values_problem("mask", expected, got)], [info("seq_len", 5)],
             mistake="upper triangle (triu) instead of lower", mistake_hint="query i sees keys j <= i: torch.tril")
    return Golden(result("causal-mask", "Batched causal mask", [c]))


def window_mask(L, S, W, extra=0):
    return [[(j <= S + i) and (j > S + i - W - extra) for j in range(S + L)] for i in range(L)]


def mask_large_cropped() -> Golden:
    expected, got = window_mask(40, 30, 8), window_mask(40, 30, 8, extra=1)
    c = case("long", "40 queries after 30 cached keys, window 8", [values_problem("mask", expected, got)],
             [info("seq_len", 40), info("start_pos", 30), info("window", 8)])
    return Golden(result("sliding-window-mask", "Sliding-window causal mask", [c]))


def mask_narrow() -> Golden:
    """50 columns: the three grids still fit side by side, each cropped to fewer columns."""
    return Golden(mask_large_cropped().result, width=50)


# ---------------------------------------------------------------- attention weights and other rows


def softmax_row(xs):
    finite = [x for x in xs if x != -math.inf]
    if not finite:
        return [math.nan] * len(xs)
    m = max(finite)
    e = [math.exp(x - m) if x != -math.inf else 0.0 for x in xs]
    s = sum(e)
    return [v / s for v in e]


def attention_weights() -> Golden:
    L = 4
    scores = [[0.5, -1.0, 2.0, 0.1], [1.5, 0.2, -0.3, 0.9], [0.0, 0.4, 0.8, -1.2], [2.2, -0.5, 0.3, 0.6]]
    mask = [[True, True, False, False], [False, False, False, False], [True, True, True, False], [True, True, True, True]]
    expected, got = [], []
    for i in range(L):
        masked = [s if m else -3.4028234663852886e38 for s, m in zip(scores[i], mask[i])]
        expected.append(softmax_row(masked) if any(mask[i]) else [1 / L] * L)
        got.append(softmax_row([s if m else -math.inf for s, m in zip(scores[i], mask[i])]))
    expected, got = [[r4(expected)]], [[r4(got)]]
    c = case("fully_masked_rows.0", about("attention", "fully_masked_rows",
                                          "some query rows have every key masked: zero or uniform weights, never NaN"),
             [values_problem("attn_weights", expected, got, *F32, kind="nonfinite")],
             [info("q", [[[[0.0] * 2] * L]]), info("mask", [[mask]], "bool"), info("init dropout_p", 0.0)],
             **mistake("attention", "nan_fully_masked", "-inf fill turns fully-masked rows into NaN",
                       "fill with a large finite negative such as torch.finfo(scores.dtype).min"))
    return Golden(result("attention", title("attention", "Scaled dot-product attention"), [c]))


def attention_wide() -> Golden:
    """Lk = 14 does not fit 80 columns: the keys are cropped around the first difference."""
    Lk = 14
    scores = [0.1 * ((7 * j) % 11) - 0.4 for j in range(Lk)]
    mask = [j <= 10 for j in range(Lk)]
    expected = r4(softmax_row([s / math.sqrt(8) if m else -1e30 for s, m in zip(scores, mask)]))
    got = r4(softmax_row([s / math.sqrt(8) if not m else -1e30 for s, m in zip(scores, mask)]))
    c = case("mask_2d", "a random [Lq, Lk] mask broadcast over batch and heads",
             [values_problem("attn_weights", [[[expected]]], [[[got]]], *F32)],
             [info("mask", [mask], "bool")], mistake="mask inverted",
             mistake_hint="True means 'may attend': fill where the mask is False")
    return Golden(result("attention", "Scaled dot-product attention", [c]))


def softmax_axis() -> Golden:
    x = [[0.5, -1.0, 2.0], [1.5, 0.2, -0.3], [0.0, 0.4, 0.8]]
    cols = [softmax_row([x[i][j] for i in range(3)]) for j in range(3)]
    expected = r4([[cols[j][i] for j in range(3)] for i in range(3)])
    got = r4([softmax_row(row) for row in x])
    c = case("first_axis", "[3, 3] along dim=0: every column sums to 1",
             [values_problem("probs", expected, got, *F32)], [info("x", x), info("dim", 0)],
             mistake="dim ignored: always the last axis", mistake_hint="pass axis=dim (and keepdims=True) to max and sum")
    return Golden(result("softmax", "Numerically stable softmax (NumPy)", [c]))


def grpo_groups() -> Golden:
    rewards = [[1.0, 0.0, 1.0, 1.0], [0.0, 0.0, 0.0, 1.0], [3.0, 3.0, 3.0, 3.0]]

    def standardise(r, mean, std):
        return [(v - mean) / (std + 1e-8) for v in r]

    def stats(r):
        m = sum(r) / len(r)
        return m, math.sqrt(sum((v - m) ** 2 for v in r) / (len(r) - 1))

    expected = r4([standardise(r, *stats(r)) for r in rewards])
    every = [v for r in rewards for v in r]
    got = r4([standardise(r, *stats(every)) for r in rewards])
    c = case("binary_rewards", "0/1 rewards in [3, 4] groups, one group of equal rewards",
             [values_problem("advantages", expected, got, *F32)], [info("rewards", rewards)],
             mistake="statistics over the whole tensor instead of per group",
             mistake_hint="each group is the last dim: mean(dim=-1, keepdim=True) and std(dim=-1, keepdim=True)")
    return Golden(result("grpo-advantage", "GRPO group advantages", [c]))


# ---------------------------------------------------------------- RL timelines


def gae(rewards, dones, values, gamma, lam, cut=True, last=None):
    T = len(rewards)
    adv, gae_t = [0.0] * T, 0.0
    for t in reversed(range(T)):
        nd = 0.0 if (dones[t] and cut) else 1.0
        nxt = values[t + 1] if t + 1 < T else (last if last is not None else 0.0)
        delta = rewards[t] + gamma * nxt * nd - values[t]
        gae_t = delta + gamma * lam * nd * gae_t
        adv[t] = gae_t
    return adv


def normalise(a):
    m = sum(a) / len(a)
    s = math.sqrt(sum((v - m) ** 2 for v in a) / (len(a) - 1))
    return [(v - m) / (s + 1e-8) for v in a]


def trajectory(T, seed):
    rewards = [round(math.sin(1.7 * t + seed), 4) for t in range(T)]
    values = [round(math.cos(2.3 * t + 3 * seed), 4) for t in range(T)]
    return rewards, values


def gae_problems(rewards, dones, values, gamma=0.99, lam=0.95):
    exp_a = gae(rewards, dones, values, gamma, lam)
    got_a = gae(rewards, dones, values, gamma, lam, cut=False)
    exp_r = r4([a + v for a, v in zip(exp_a, values)])
    got_r = r4([a + v for a, v in zip(got_a, values)])
    return [values_problem("advantages", r4(normalise(exp_a)), r4(normalise(got_a)), *F32),
            values_problem("returns", exp_r, got_r, *F32)]


def gae_done() -> Golden:
    rewards, values = trajectory(8, 1)
    dones = [t == 3 for t in range(8)]
    c = case("done_in_middle", about("gae", "done_in_middle",
                                     "a done at step 3 cuts the value and advantage flowing back from step 4"),
             gae_problems(rewards, dones, values),
             [info("rewards", rewards), info("dones", dones, "bool"), info("values", values), info("gamma", 0.99),
              info("lam", 0.95)],
             **mistake("gae", "dones_ignored", "dones ignored",
                       "multiply both gamma * next_value and the carried advantage by (1 - dones[t])"))
    return Golden(result("gae", title("gae", "Generalised advantage estimation"), [passing("no_dones"), c]))


def gae_long() -> Golden:
    T = 40
    rewards, values = trajectory(T, 2)
    dones = [t in (9, 27, 28) for t in range(T)]
    problems = gae_problems(rewards, dones, values)
    c = case("long_float64.0", "T = 40 with dones at 9, 27 and 28", problems,
             [info("rewards", rewards, "float64"), info("dones", dones, "bool"), info("values", values, "float64"),
              info("gamma", 0.99), info("lam", 0.95)])
    return Golden(result("gae", "Generalised advantage estimation", [c]))


def gae_batched() -> Golden:
    T, N, gamma, lam = 5, 3, 0.99, 0.95
    cols = [trajectory(T, n + 4) for n in range(N)]
    rewards = [[cols[n][0][t] for n in range(N)] for t in range(T)]
    values = [[cols[n][1][t] for n in range(N)] for t in range(T)]
    dones = [[(t, n) in ((4, 1), (1, 2)) for n in range(N)] for t in range(T)]
    last = [0.25, -0.5, 0.75]
    exp = [gae([r[n] for r in rewards], [d[n] for d in dones], [v[n] for v in values], gamma, lam, last=last[n])
           for n in range(N)]
    # the bootstrap not masked by the last step's done: only env 1 (done at T-1) changes
    got = [gae([r[n] for r in rewards], [d[n] if t < T - 1 else False for t, d in enumerate(dones)],
               [v[n] for v in values], gamma, lam, last=last[n]) if n == 1 else exp[n] for n in range(N)]
    exp_a = r4([[exp[n][t] for n in range(N)] for t in range(T)])
    got_a = r4([[got[n][t] for n in range(N)] for t in range(T)])
    exp_r = r4([[exp_a[t][n] + values[t][n] for n in range(N)] for t in range(T)])
    got_r = r4([[got_a[t][n] + values[t][n] for n in range(N)] for t in range(T)])
    c = case("done_at_last_step", "env 1 ends at the last step: its bootstrap is cut",
             [values_problem("advantages", exp_a, got_a, *F32), values_problem("returns", exp_r, got_r, *F32)],
             [info("rewards", rewards), info("dones", dones, "bool"), info("values", values), info("last_values", last),
              info("gamma", gamma), info("lam", lam)],
             mistake="the bootstrap is not masked by the last step's done",
             mistake_hint="at t = T-1 the next value is last_values * (1 - dones[T-1])")
    return Golden(result("gae-batched", "GAE over parallel environments", [c]))


def f32(x):
    """x rounded to float32, as a float32 tensor holds it."""
    return struct.unpack("f", struct.pack("f", x))[0]


def gae32(rewards, dones, values, gamma, lam):
    """The GAE recursion with every operation rounded to float32 (the inputs cast with .float())."""
    T = len(rewards)
    adv, gae_t, g, gl = [0.0] * T, 0.0, f32(gamma), f32(f32(gamma) * f32(lam))
    for t in reversed(range(T)):
        nd = 0.0 if dones[t] else 1.0
        nxt = f32(values[t + 1]) if t + 1 < T else 0.0
        delta = f32(f32(f32(rewards[t]) + f32(f32(g * nxt) * nd)) - f32(values[t]))
        gae_t = f32(delta + f32(f32(gl * nd) * gae_t))
        adv[t] = gae_t
    return adv


def gae_precision() -> Golden:
    """float64 inputs, a float32 computation: close everywhere, no step to blame."""
    T = 30
    rewards, values = trajectory(T, 3)
    dones = [t in (11, 20) for t in range(T)]
    exp_a = gae(rewards, dones, values, 0.99, 0.95)
    got_a = gae32(rewards, dones, values, 0.99, 0.95)
    exp_r = [a + v for a, v in zip(exp_a, values)]
    got_r = [f32(a + f32(v)) for a, v in zip(got_a, values)]
    problems = [values_problem("advantages", normalise(exp_a), normalise(got_a), 1e-7, 1e-9, kind="precision"),
                values_problem("returns", exp_r, got_r, 1e-7, 1e-9, kind="precision")]
    c = case("long_float64.1", about("gae", "long_float64", "T = 30 in float64 with dones at 11 and 20",
                                     "T = 30，float64，第 11 和 20 步 done"), problems,
             [info("rewards", rewards, "float64"), info("dones", dones, "bool"), info("values", values, "float64"),
              info("gamma", 0.99), info("lam", 0.95)])
    return Golden(result("gae", title("gae", "Generalised advantage estimation"), [passing("no_dones"), c]))


def attention_precision() -> Golden:
    """float64 attention weights from a float32 softmax: the rows show the digits that differ."""
    scores = [[30.1, 29.37, 28.83, -5.2], [15.01, 14.2, -3.0, 14.66]]  # large scores: float32 rounds them by ~1e-6
    expected = [softmax_row(row) for row in scores]
    got = []
    for row in scores:  # scores, exponentials and their sum rounded to float32, as torch.softmax in float32 does
        m = max(f32(x) for x in row)
        e = [f32(math.exp(f32(f32(x) - m))) for x in row]
        total = f32(sum(e))
        got.append([f32(v / total) for v in e])
    c = case("float64", "float64 in, float64 out",
             [values_problem("attn_weights", [[expected]], [[got]], 1e-7, 1e-9, kind="precision")],
             [info("q", [[[[0.0] * 2] * 2]], "float64"), info("init dropout_p", 0.0)])
    return Golden(result("attention", "Scaled dot-product attention", [c]))


def grpo_digits() -> Golden:
    """Differences in the fourth significant digit: -0.707 twice would hide them; more digits show them."""
    rewards = [[0.5, 0.503, 0.506, 0.509], [1.0, 0.0, 1.0, 1.0]]

    def stats(r):
        m = sum(r) / len(r)
        return m, math.sqrt(sum((v - m) ** 2 for v in r) / (len(r) - 1))

    expected = [[(v - m) / (s + 1e-8) for v in r] for r in rewards for m, s in [stats(r)]]
    got = [[(v - m) / (s + 1e-6) for v in r] for r in rewards for m, s in [stats(r)]]
    c = case("tiny_spread", "groups whose rewards differ by 1e-3 or less: the epsilon shows",
             [values_problem("advantages", r4(expected), r4(got), *F32)], [info("rewards", rewards)],
             mistake="epsilon 1e-6 instead of 1e-8", mistake_hint="divide by (std + 1e-8)")
    return Golden(result("grpo-advantage", "GRPO group advantages", [c]))


def grpo_loss_precision() -> Golden:
    """A float64 loss computed in float32: the scalar table prints the digits where they part."""
    old = [-3.1, -2.7, -4.2, -3.3, -2.9, -5.0]
    new = [-3.0, -2.95, -4.4, -3.05, -2.6, -5.2]
    ref = [-3.2, -2.8, -4.1, -3.0, -2.7, -5.1]
    adv = [0.8, -1.1, 0.3, 1.4, -0.6, -0.2]

    def loss(rnd):
        terms = []
        for o, n, r, a in zip(old, new, ref, adv):
            ratio = rnd(math.exp(rnd(rnd(n) - rnd(o))))
            surrogate = min(rnd(ratio * a), rnd(min(max(ratio, 0.8), 1.2) * a))
            kl = rnd(rnd(math.exp(rnd(rnd(r) - rnd(n)))) - rnd(rnd(r) - rnd(n)) - 1)
            terms.append(rnd(-(surrogate - rnd(0.04 * kl))))
        return rnd(sum(terms) / len(terms))

    c = case("float64_per_completion", "[G] in float64",
             [values_problem("loss", loss(float), loss(f32), 1e-7, 1e-9, kind="precision")],
             [info("new_log_probs", new, "float64"), info("clip_epsilon", 0.2), info("kl_beta", 0.04)])
    return Golden(result("grpo-loss", "GRPO clipped loss with a KL penalty", [c]))


# ---------------------------------------------------------------- scalars


def grpo_loss() -> Golden:
    mask = [[True] * 5 + [False], [True] + [False] * 5, [True] * 6, [True] * 3 + [False] * 3]
    tokens = [[0.1 * (i + 1) * (j - 2) for j in range(6)] for i in range(4)]
    per_row = [sum(v for v, m in zip(row, mrow) if m) / sum(mrow) for row, mrow in zip(tokens, mask)]
    expected = sum(per_row) / 4
    got = sum(v for row, mrow in zip(tokens, mask) for v, m in zip(row, mrow) if m) / sum(map(sum, mask))
    problem = values_problem("loss", round(expected, 6), round(got, 6), *F32)
    c = case("per_token_bool_mask", about("grpo-loss", "per_token_bool_mask",
                                          "[G, T] with a bool mask, completion lengths 5, 1, 6, 3",
                                          "[G, T]，bool 掩码，各回答长度为 5、1、6、3"), [problem],
             [info("new_log_probs", [[0.0] * 6] * 4), info("clip_epsilon", 0.2), info("kl_beta", 0.04),
              info("mask", mask, "bool")],
             **mistake("grpo-loss", "token_level_mean", "token-level mean over all valid tokens",
                       "average each completion over its own tokens first, then over G"))
    return Golden(result("grpo-loss", title("grpo-loss", "GRPO clipped loss with a KL penalty"), [c]))


# ---------------------------------------------------------------- no picture: structure, errors, bounds


def structure() -> Golden:
    c = case("no_dones", "one episode that never ends inside the trajectory",
             [Problem("structure", "", "returned a tensor of shape (8,); expected a tuple of 2 (advantages, returns) "
                                       "— did you forget to return both?")],
             [info("rewards", [0.5] * 8), info("gamma", 0.99)])
    d = case("device", "tensors you create follow the inputs' device (checked as if the inputs were on a GPU)",
             [Problem("device", "advantages", "advantages is on meta, expected cpu — a tensor was created without "
                                              "following the inputs' device: use torch.zeros_like(x) or device=x.device")])
    return Golden(result("gae", "Generalised advantage estimation", [c, d]))


def learner_error() -> Golden:
    c = CaseResult("basic", "basic", "B = 2, H = 3, L = 5", Status.ERROR,
                   error=LearnerError("RuntimeError", "The size of tensor a (5) must match the size of tensor b (3)",
                                      '  File "causal_mask.py", line 6, in create_batch_causal_mask\n'
                                      "    return m.expand(batch_size, n_head, seq_len)"),
                   reproduce="kata check causal-mask --seed 7 --case basic")
    return Golden(result("causal-mask", "Batched causal mask", [c], status=Status.ERROR))


def whole_file() -> Golden:
    if i18n.current() != i18n.ENGLISH:  # the engine's own words for a stub (checker/judge/engine.py)
        return Golden(result("gae", title("gae", ""), [], status=Status.ERROR, hint=tr("Stuck? `kata hint {id}` gives a nudge.", id="gae"),
                             message=tr("{entry} is not implemented yet: it still raises NotImplementedError. Write it in "
                                        "{file}, then check again.", entry="compute_gae", file="gae.py")))
    return Golden(result("gae", "Generalised advantage estimation", [], status=Status.ERROR,
                         message="gae.py: compute_gae is not implemented yet (it raises NotImplementedError).",
                         hint="Write compute_gae, then run 'kata check gae' again."))


def bounded() -> Golden:
    """Five failing cases, one with many gradient problems: three cases in full, three problems each."""
    grads = [values_problem(f"grad of {n}", [0.5, -0.25], [0.25, -0.25], *F32)
             for n in ("x", "w_q.weight", "w_q.bias", "w_k.weight", "w_k.bias", "w_v.weight")]
    first = case("gradients", "gradients w.r.t. x and every parameter", grads, [info("x", [[0.1, 0.2]])])
    rest = [case(f"random.{i}", "random sizes", [values_problem("out", [1.0], [2.0], *F32)]) for i in range(4)]
    return Golden(result("mha", "Multi-head self-attention", [passing("no_mask"), first, *rest]))


def passed() -> Golden:
    return Golden(result("gae", title("gae", "Generalised advantage estimation"), [passing("no_dones"), passing("random.0"),
                                                                                   passing("random.1")], status=Status.PASS))


CASES = {
    "mask_offset": mask_offset,
    "mask_batched_diagonal": mask_batched_diagonal,
    "mask_transposed": mask_transposed,
    "mask_large_cropped": mask_large_cropped,
    "mask_narrow": mask_narrow,
    "attention_weights": attention_weights,
    "attention_wide": attention_wide,
    "softmax_axis": softmax_axis,
    "grpo_groups": grpo_groups,
    "gae_done": gae_done,
    "gae_long": gae_long,
    "gae_batched": gae_batched,
    "grpo_loss": grpo_loss,
    "gae_precision": gae_precision,
    "attention_precision": attention_precision,
    "grpo_digits": grpo_digits,
    "grpo_loss_precision": grpo_loss_precision,
    "structure": structure,
    "learner_error": learner_error,
    "whole_file": whole_file,
    "bounded": bounded,
    "passed": passed,
}

# In Chinese: a mask grid, attention rows, a GAE timeline, a GRPO scalar table, a precision diagnosis, a
# whole-file error and a pass, each at three widths.
CHINESE = ("mask_offset", "attention_weights", "gae_done", "grpo_loss", "gae_precision", "whole_file", "passed")
ZH_WIDTHS = (60, 80, 200)


def _in_chinese(make, width: int):
    def made() -> Golden:
        with i18n.speaking("zh"):
            golden = make()
        return Golden(golden.result, width, golden.verbose, "zh")
    return made


CASES.update({f"{name}_zh_{width}": _in_chinese(CASES[name], width) for name in CHINESE for width in ZH_WIDTHS})


def render(golden: Golden) -> str:
    """The report as plain text at a fixed width: what a terminal without colour shows."""
    import io

    from rich.console import Console

    from checker.app.render import report

    console = Console(width=golden.width, record=True, color_system=None, file=io.StringIO(), highlight=False)
    with i18n.speaking(golden.lang):
        console.print(report(golden.result, verbose=golden.verbose))
    return console.export_text()
