"""Case families for `greedy-generate`: the learner's decode loop drives the checker's tiny model
(checker/specs/_tinylm.py), whose calls are recorded.

Every case's model is drawn from its seed, and kept only when the float64 greedy run of its prompts never
chooses between logits closer than 1e-3 (no rounding, no cache-free recomputation, can flip a choice). EOS
cases take their eos token from that free run, never by hand: a token some rows emit mid-way, one every
row emits early (the early stop shows), one a row emits first, one never emitted, one only one row emits.
A tie case copies one token's logit onto a later token's, so the first index among equal maxima matters.

Compared: the tokens exactly; then the calls, by the contract's rule: call 0 passes the whole prompt and no
cache, each later call one token per row and the cache the call before returned, n calls for n tokens
(n + 1 when the extra one is last and passes the final token). The report says in words which call broke
the rule.
"""
from __future__ import annotations

import sys

import torch

from checker.judge import spec as spec_api
from checker.judge.codec import TensorValue
from checker.judge.compare import compare_item, split_outputs
from checker.text.i18n import plural, tr
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake, Outcome
from checker.specs._rl import pick, randint
from checker.specs._tinylm import VOCAB, TinyLM, TinyLMSpec, calls_of, free_run

GAP = 1e-3  # the smallest gap between the chosen logit and the runner-up along a case's greedy path
_OMIT = object()


# ---------------------------------------------------------------- drawing cases


def _first_steps(run: torch.Tensor) -> list[list[int | None]]:
    """For each token, per row, the step at which it is first generated (None: never), in one pass."""
    B, n = run.shape
    hits = run[None] == torch.arange(VOCAB)[:, None, None]  # (V, B, n)
    first = torch.where(hits, torch.arange(n), n).amin(dim=-1)  # (V, B): n where never
    return [[None if a == n else a for a in row] for row in first.tolist()]


def _eos_for(run: torch.Tensor, want: str, g: torch.Generator) -> int | None:
    """A token of the free run that fits `want`, or None when this run has none."""
    B, n = run.shape
    fits = []
    for t, at in enumerate(_first_steps(run)):
        hit = [a for a in at if a is not None]
        if want == "mid" and 0 < len(hit) < B and all(a >= 1 for a in hit) and any(1 <= a < n - 1 for a in hit):
            fits.append(t)
        elif want == "all_early" and len(hit) == B and max(hit) < n - 2:
            fits.append(t)
        elif want == "first" and 0 in hit and len(hit) < B:
            fits.append(t)
        elif want == "never" and not hit:
            fits.append(t)
        elif want == "one_row" and len(hit) == 1 and hit[0] < n - 1:
            fits.append(t)
    return pick(g, fits) if fits else None


def _draw(g: torch.Generator, B: int, L: int, n: int, *, eos: str | None = None, pad: object = "random",
          dtype: torch.dtype = torch.float32, tie: bool = False, keywords: str = "all", patience: int = 400) -> Inputs:
    """A case: a model whose greedy path is clear, prompts [B, L], max_new_tokens n, and an eos of kind `eos`
    (None: eos_token_id=None) found in the model's own free run; after `patience` models without such an eos,
    a random draw settles for eos_token_id=None."""
    for attempt in range(400):
        if attempt == patience:
            eos = None
        seed = randint(g, 0, 2**31 - 1)
        ids = torch.randint(0, VOCAB, (B, L), generator=g)
        model = TinyLMSpec(seed, dtype)
        if tie:
            plain, _ = free_run(model, ids, n)
            a = pick(g, sorted({int(t) for t in plain.flatten() if int(t) < VOCAB - 1}))
            model = TinyLMSpec(seed, dtype, (a, randint(g, a + 1, VOCAB - 1)))
        run, gap = free_run(model, ids, n)
        if gap < GAP:
            continue
        if tie and not bool((run == model.tie[0]).any()):
            continue  # the tie must be met on the way
        eos_id = None if eos is None else _eos_for(run, eos, g)
        if eos is not None and eos_id is None:
            continue
        break
    else:  # pragma: no cover — the families below find a case within a few tries
        raise RuntimeError(f"no greedy-generate case found for eos={eos!r}")
    pad_id = eos_id if pad == "eos" and eos_id is not None else randint(g, 0, VOCAB - 1)
    if eos_id is not None and pad != "eos":
        while pad_id == eos_id:
            pad_id = randint(g, 0, VOCAB - 1)
    args: dict = {"model": model, "input_ids": ids, "max_new_tokens": n}
    if keywords != "defaults":
        args["eos_token_id"] = eos_id
        args["pad_token_id"] = pad_id
    show = {"call": "positional"} if keywords == "positional" else {}
    return Inputs(args=args, show=show)


def _case(B: int, L: int, n: int, **kw):
    return lambda g: _draw(g, B, L, n, **kw)


def _random(g: torch.Generator) -> Inputs:
    B, L, n = randint(g, 1, 5), randint(g, 1, 8), randint(g, 1, 12)
    kinds = [None, "never"] + (["all_early"] if n >= 4 else []) + (["mid", "mid", "first", "one_row"] if B >= 2 and n >= 3 else [])
    return _draw(g, B, L, n, eos=pick(g, kinds), pad=pick(g, ["random", "random", "random", "eos"]),
                 dtype=pick(g, [torch.float32, torch.float32, torch.float64]), patience=6)


FAMILIES = (
    Family("no_eos", _case(3, 4, 6)),
    Family("defaults", _case(2, 3, 5, keywords="defaults")),
    Family("max_new_tokens_one", _case(3, 5, 1, eos="never")),
    Family("max_new_tokens_one_no_eos", _case(2, 3, 1)),
    Family("one_token_prompt", _case(3, 1, 6, eos="mid")),
    Family("batch_of_one", _case(1, 5, 7)),
    Family("batch_of_one_eos", _case(1, 4, 10, eos="all_early")),
    Family("eos_mid_way", _case(4, 3, 10, eos="mid")),
    Family("eos_every_row_early", _case(3, 3, 12, eos="all_early")),
    Family("pad_equals_eos", _case(4, 3, 10, eos="mid", pad="eos")),
    Family("pad_equals_eos_early_stop", _case(3, 3, 12, eos="all_early", pad="eos")),
    Family("eos_first_token", _case(4, 4, 8, eos="first")),
    Family("eos_never_emitted", _case(3, 4, 8, eos="never")),
    Family("one_row_finishes", _case(4, 3, 10, eos="one_row")),
    Family("float64", _case(3, 4, 8, eos="mid", dtype=torch.float64)),
    Family("float64_early_stop", _case(3, 3, 12, eos="all_early", dtype=torch.float64)),
    Family("forty_tokens", _case(2, 3, 40)),
    Family("forty_tokens_eos", _case(3, 2, 40, eos="mid")),
    Family("positional_call", _case(3, 4, 8, eos="mid", keywords="positional")),
    Family("tied_logits", _case(3, 3, 8, tie=True)),
    Family("tied_logits_eos", _case(3, 3, 10, eos="mid", tie=True)),
    Family("random", _random, draws=78),
    Family("device", _case(3, 3, 8, eos="mid"), track_device=True),
    Family("device_defaults", _case(3, 3, 8, keywords="defaults"), track_device=True),
)


# ---------------------------------------------------------------- how a case runs


def call(kata, entry, inputs: Inputs, device: torch.device, track_device: bool = False) -> Outcome:
    """Build the case's model on the run device, hand it to the entry point, and return (tokens, the calls it
    made as int64 [calls, 3]: rows, tokens per row, the call whose cache was passed or -1)."""
    made: list[TinyLM] = []
    positional = inputs.show.get("call") == "positional"

    def run(model, input_ids, max_new_tokens, **rest):
        lm = TinyLM(model, input_ids.device)
        made.append(lm)
        if positional:
            return entry(lm, input_ids, max_new_tokens, rest["eos_token_id"], rest["pad_token_id"])
        return entry(lm, input_ids=input_ids, max_new_tokens=max_new_tokens, **rest)

    outcome = spec_api.call(kata, run, inputs, device, track_device)
    calls = calls_of(made[0]) if made else []  # kept where the learner's code cannot write it
    B, L = inputs.args["input_ids"].shape
    value = outcome.value
    if isinstance(value, torch.Tensor) and value.dim() == 2 and value.shape[1] > L and len(calls) == value.shape[1] - L + 1:
        if calls[-1] == (B, 1, len(calls) - 2):
            calls.pop()  # one last call on the final token: accepted (the contract's n + 1), and then said no more
    record = torch.tensor(calls, dtype=torch.int64).reshape(len(calls), 3)
    return Outcome((value, record), {}, outcome.args)


# ---------------------------------------------------------------- how a case is judged


def compare(kata, case, expected, got):
    """The tokens exactly, then the calls by the contract's rule (in words)."""
    want, _ = split_outputs(kata, expected[0].value)
    have, problems = split_outputs(kata, got.value)
    if have is None:
        return problems
    spec = sys.modules[__name__]
    problems = compare_item(spec, case, "tokens", want["tokens"], have["tokens"])
    said = call_problem(case, want["tokens"], have["tokens"], have["calls"])
    if said is None:
        return problems
    return problems + [Problem("values", "calls", said + "\n" + calls_line(have["calls"]))]


def calls_line(calls, shown: int = 8) -> str:
    """The learner's calls in one short line: tokens per row, and the call whose cache came back (– for none)."""
    record = calls.data.tolist() if isinstance(calls, TensorValue) and calls.data is not None else []
    items = [f"#{i} {length}{'' if cache_of < 0 else '+c' + str(cache_of)}" for i, (_, length, cache_of) in
             enumerate(record[:shown])]
    more = " …" if len(record) > shown else ""
    return "  " + tr("your calls (tokens per row, +cN: the cache call N returned): {calls}", calls=" ".join(items) + more)


def call_problem(case, expected_tokens: TensorValue, tokens, calls) -> str | None:
    """What the learner's calls did against the rule, in one sentence, or None."""
    B, L = case.inputs.args["input_ids"].shape
    n = expected_tokens.shape[1] - L
    prompt = case.inputs.args["input_ids"]
    data = tokens.data if isinstance(tokens, TensorValue) else None
    if data is not None and data.dim() == 2 and tuple(data.shape[:1]) == (B,) and data.shape[1] >= L and \
            torch.equal(data[:, :L].cpu().to(prompt.dtype), prompt):
        n = data.shape[1] - L  # the learner's own count: a wrong count of tokens is the tokens' problem
    record = calls.data.tolist() if isinstance(calls, TensorValue) and calls.data is not None else []
    if not record:
        return tr("the model was never called")
    for i, (rows, length, cache_of) in enumerate(record):
        if rows != B:
            return tr("call {i} passed {rows} rows; every call passes all {B} rows of the batch", i=i, rows=rows, B=B)
        if i == 0:
            if length != L:
                return plural(length, "call 0 passed {n} token per row; the first call (the prefill) passes the whole "
                              "prompt, {L} tokens, with no cache", "call 0 passed {n} tokens per row; the first call (the "
                              "prefill) passes the whole prompt, {L} tokens, with no cache", L=L)
            continue
        if cache_of == -1:
            return plural(length, "call {i} passed {n} token and no cache; after the prefill each call must pass only "
                          "the new token and the cache the call before returned", "call {i} passed {n} tokens and no "
                          "cache; after the prefill each call must pass only the new token and the cache the call before "
                          "returned", i=i)
        if length != 1:
            return tr("call {i} passed {n} tokens; after the prefill each call must pass only the new token and the "
                      "returned cache", i=i, n=length)
        if cache_of != i - 1:
            return tr("the cache passed at call {i} is not the one call {before} returned (it is call {k}'s)", i=i,
                      before=i - 1, k=cache_of)
    extra = len(record) - n
    if extra > 1:
        return plural(extra, "{n} call after the last token; a run that makes n tokens makes n calls (n + 1 when the "
                      "last one passes the final token)", "{n} calls after the last token; a run that makes n tokens "
                      "makes n calls (n + 1 when the last one passes the final token)")
    if extra < 0:
        return tr("{calls} calls for {n} new tokens: each new token is the argmax of a call's logits", calls=len(record),
                  n=n)
    return None


# ---------------------------------------------------------------- known mistakes


def _generate(model, input_ids, max_new_tokens, eos_token_id=None, pad_token_id=0, *, cache="yes", position=-1,
              keep_eos=True, stop="all", fill="pad", sticky=True, trim=False, prompt=True, short=False, ties="first"):
    """cache: "yes" (the contract), "none" (re-feeds the whole sequence, no cache), "refeed" (the whole
    sequence and the cache); stop: "all" | "any" | "never" (runs to max_new_tokens); trim: run to
    max_new_tokens, then cut the columns after every row finished (the tokens right, the calls not)."""
    B = input_ids.shape[0]
    seq = input_ids
    unfinished = torch.ones(B, dtype=torch.bool, device=input_ids.device)
    logits, past = model(input_ids)
    steps = max_new_tokens - 1 if short else max_new_tokens
    done_at = None
    for step in range(steps):
        last = logits[:, position, :]
        if ties == "last":
            nxt = last.shape[-1] - 1 - last.flip(-1).argmax(dim=-1)
        else:
            nxt = last.argmax(dim=-1)
        if eos_token_id is not None:
            filler = torch.full_like(nxt, pad_token_id if fill == "pad" else eos_token_id)
            if sticky:
                nxt = torch.where(unfinished, nxt, filler)
                hit = unfinished & (nxt == eos_token_id)
                unfinished = unfinished & (nxt != eos_token_id)
            else:
                was = seq[:, -1] == eos_token_id if step > 0 else torch.zeros_like(unfinished)
                nxt = torch.where(was, filler, nxt)
                hit = nxt == eos_token_id
                unfinished = ~hit
            if not keep_eos:
                nxt = torch.where(hit, torch.full_like(nxt, pad_token_id), nxt)
        seq = torch.cat([seq, nxt[:, None]], dim=1)
        if eos_token_id is not None and done_at is None and not bool(unfinished.any()):
            done_at = seq.shape[1]
        if step + 1 == steps:
            break
        if eos_token_id is not None:
            if stop == "all" and not trim and not bool(unfinished.any()):
                break
            if stop == "any" and not bool(unfinished.all()):
                break
        if cache == "none":
            logits, past = model(seq)
        elif cache == "refeed":
            logits, past = model(seq, past_key_values=past)
        else:
            logits, past = model(nxt[:, None], past_key_values=past)
    if trim and done_at is not None:
        seq = seq[:, :done_at]
    return seq if prompt else seq[:, input_ids.shape[1]:]


def _variant(**switches):
    def greedy_generate(model, input_ids, max_new_tokens, eos_token_id=None, pad_token_id=0):
        return _generate(model, input_ids, max_new_tokens, eos_token_id, pad_token_id, **switches)
    return greedy_generate


MISTAKES = (
    Mistake("no_cache", _variant(cache="none")),
    Mistake("sequence_refed_with_cache", _variant(cache="refeed")),
    Mistake("first_position_logits", _variant(position=0)),
    Mistake("eos_replaced_by_pad", _variant(keep_eos=False)),
    Mistake("stops_when_any_row_finishes", _variant(stop="any")),
    Mistake("never_stops_early", _variant(stop="never")),
    Mistake("pads_with_eos", _variant(fill="eos")),
    Mistake("finished_not_sticky", _variant(sticky=False)),
    Mistake("extra_model_calls", _variant(trim=True)),
    Mistake("prompt_not_returned", _variant(prompt=False)),
    Mistake("one_token_short", _variant(short=True)),
    Mistake("last_index_on_ties", _variant(ties="last")),
)


def _bench(g: torch.Generator) -> Inputs:
    ids = torch.randint(0, VOCAB, (32, 16), generator=g)
    return Inputs(args={"model": TinyLMSpec(randint(g, 0, 2**31 - 1)), "input_ids": ids, "max_new_tokens": 128,
                        "eos_token_id": None, "pad_token_id": 0})


# `kata check greedy-generate --bench`: 32 prompts of 16 tokens, 128 new tokens each (the model is tiny: the loop's
# own cost shows, a loop without the cache is quadratic).
BENCH = ("B = 32, L = 16, 128 new tokens", _bench)
