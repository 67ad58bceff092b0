"""Case families for `beam-search-hf`: transformers' `generate` beam search (early_stopping True / False / "never")
over the beam katas' case model (checker/specs/_beam.py: a CRC of each row's tokens picks its logits, and the
eos token grows likelier with the length, so hypotheses end mid-way).

Every case's model seed is redrawn (`_beam.redraw`) until the contract's search depends on no comparison closer
than 1e-4 (relative): consecutive raw scores among the top 2k + 1 candidates of every step, the ranked final scores
of the finished list, and the stop test (best running raw / h ** length_penalty against the worst finished score).
So tie order is free, and float32 or float64 sums both pass. The property families also redraw until their
property shows: early_stopping True, False and "never" each giving another answer than the mode it is mistaken
for, length_penalty 0 / 2 / −0.5 changing the tokens against 1, an eos at rank k … 2k−1 that an eos accepted at
any rank would take, two finishers of one step entering a list that held k − 1 (early_stopping=True, r = k), rows
of different lengths among those returned (the padding shows) — decided by running the search with the mistake's
switch (`_search` below) on the same model.

Compared: sequences exactly (shape, int64, device, values); scores at rtol 1e-5, atol 1e-5 × max(1, max|expected|)
in both dtypes (transformers itself scores in float32).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import torch

from checker.judge import spec as spec_api
from checker.judge.spec import Family, Inputs, Mistake, Outcome
from checker.specs._beam import BeamModel, Margins, final_score, redraw
from checker.specs._rl import pick, randint

SCORES_TOL = (1e-5, 1e-5)  # (rtol, atol × max(1, max|expected|)), float32 and float64 alike


# ---------------------------------------------------------------- the search, with the mistakes' switches


@dataclass
class Trace:
    """One run of `_search`: the r best finished hypotheses (generated tokens, final scores), the step it stopped
    after, and what the property families look for."""

    tokens: list[list[int]] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    stopped: int = 0
    eos_steps: set[int] = field(default_factory=set)  # steps at which an eos candidate was offered
    double_entry: bool = False  # two finishers of one step entered a list that held k − 1


def _search(rows: Callable, prompt: list[int], k: int, T: int, eos: int | None, lp: float, es: Any, r: int,
            margins: Margins | None = None, *, length: str = "generated", eos_ranks: str = "top", width: int = 2,
            keep_running: bool = False, stop: str = "contract", fill: str = "together", rank: str = "final",
            returned: str = "final", copies: bool = False) -> Trace:
    """The contract's search in plain Python over `rows(token lists) -> log-prob lists`, recording in `margins` the
    gap of every comparison its answer depends on. The switches are the mistakes: length "generated" | "with_prompt"
    | "without_eos" (an eos at step 1 divides by 0 ** lp, as a tensor division does) | "without_eos_at_least_1";
    eos_ranks "top" | "any" (an eos at any kept rank finishes); width: candidates kept per step, × k;
    keep_running: finished candidates stay among the next beams; stop "contract" | "false_as_true" | "never_as_false"
    | "never_as_true" | "false_to_max" | "no_penalty" | "best_finished"; fill "together" | "per_offer" (True: offers
    in rank order while the list holds fewer than k); rank "final" | "raw"; returned "final" | "raw" (the raw sums
    returned as scores); copies: k copies of the prompt at t = 1."""
    L = len(prompt)
    beams: list[tuple[float, list[int]]] = [(0.0, [])] * (k if copies else 1)  # (raw score, generated tokens)
    done: list[tuple[float, float, list[int]]] = []  # the finished list: (final score, raw score, tokens)
    key = (lambda d: d[0]) if rank == "final" else (lambda d: d[1])
    mode = {"false_as_true": {False: True}, "never_as_false": {"never": False},
            "never_as_true": {"never": True}}.get(stop, {}).get(es, es) if isinstance(es, (bool, str)) else es
    trace = Trace()
    for t in range(1, T + 1):
        trace.stopped = t
        log_probs = rows([prompt + gen for _, gen in beams])
        # Every candidate's raw score, beam by beam; the indices of the best, as sorted(…, key=-score) keeps them
        # (stable: ties in beam, then token order), with no tuple per candidate.
        flat = [raw + p for (raw, _), row in zip(beams, log_probs) for p in row]
        order = sorted(range(len(flat)), key=flat.__getitem__, reverse=True)[:width * k + 1]
        if margins is not None:
            margins.ranked([flat[j] for j in order], width * k, ordered=True)
        V = len(log_probs[0])
        offers, live = [], []
        for i, j in enumerate(order[:width * k]):
            score, (b, v) = flat[j], divmod(j, V)
            gen = beams[b][1] + [v]
            ends = v == eos or t == T
            if ends and (i < k or eos_ranks == "any"):
                n = t + (L if length == "with_prompt" else 0)
                if length.startswith("without_eos") and v == eos:
                    n = max(n - 1, 1) if length == "without_eos_at_least_1" else n - 1
                offers.append((final_score(score, n, lp), score, gen))
                if v == eos:
                    trace.eos_steps.add(t)
            if not ends or keep_running:
                live.append((score, gen))
        before = len(done)
        if fill == "per_offer" and mode is True:
            for offer in offers:
                if len(done) < k:
                    done = sorted(done + [offer], key=lambda d: -key(d))
        else:
            done = sorted(done + offers, key=lambda d: -key(d))
            if margins is not None:
                margins.ranked([key(d) for d in done], k, ordered=True)
            done = done[:k]
        entered = sum(1 for d in done if any(d is o for o in offers))
        trace.double_entry |= before == k - 1 and entered >= 2
        beams = live[:k]
        if t == T or not beams:
            break
        if len(done) < k:
            continue
        if mode is True:
            break
        if stop == "false_to_max" and mode is False:
            continue
        h = T if mode == "never" and lp > 0 else t
        best = beams[0][0] if stop == "no_penalty" else beams[0][0] / h ** lp
        worst = done[0][0] if stop == "best_finished" else done[-1][0]
        if margins is not None:
            margins.pair(best, worst)
        if best <= worst:
            break
    trace.tokens = [gen for _, _, gen in done[:r]]
    trace.scores = [d[0] if returned == "final" else d[1] for d in done[:r]]
    return trace


def _answer(trace: Trace, input_ids: torch.Tensor, dtype: torch.dtype, pad: int, eos: int | None, *, prompt=True,
            padding="pad", ids="int64", scores=None, squeeze=False) -> tuple[torch.Tensor, torch.Tensor]:
    """A trace as the entry point returns it; the switches are the mistakes of the returned tensors (padding
    "pad" | "eos" | "pad_or_eos": transformers' `pad_token_id or eos_token_id`)."""
    n = max(len(t) for t in trace.tokens)
    filler = pad if eos is None or padding == "pad" or padding == "pad_or_eos" and pad else eos
    generated = torch.tensor([t + [filler] * (n - len(t)) for t in trace.tokens], dtype=torch.int64,
                             device=input_ids.device)  # (r, n)
    sequences = torch.cat([input_ids.expand(len(trace.tokens), -1), generated], dim=1) if prompt else generated
    values = torch.tensor(trace.scores, dtype=getattr(torch, scores) if scores else dtype, device=input_ids.device)
    sequences = sequences.to(getattr(torch, ids))
    if squeeze:
        return sequences.squeeze(0), values.squeeze(0)
    return sequences, values


# ---------------------------------------------------------------- drawing cases


def _draw(g: torch.Generator, V: int, k: int, L: int, T: int, *, eos: bool = True, lp: float = 1.0, es: Any = False,
          r: int | None = None, pad: Any = "random", dtype: torch.dtype = torch.float32, bias: float = -1.0,
          slope: float = 0.6, scale: float = 1.5, want: tuple | None = None, keywords: str = "all") -> Inputs:
    """A case: a prompt of L tokens, a model of V tokens (eos or none), the search's arguments, and a model seed
    redrawn until the search is ≥ 1e-4 from every tie and `want` = (alternatives, predicate) holds: each
    alternative is a dict of `_search` switches (or "es" / "lp" overrides) run on the same model, and
    predicate(the contract's trace, the alternatives' traces) says whether the property shows."""
    r = k if r is None else r
    fixed = {"eos": pad} if pad == "eos" else {0: 0, 1: 1, "last": V - 1}
    pad_id = fixed.get(pad) if pad != "eos" else None
    eos_id = None
    if eos:
        eos_id = randint(g, 0, V - 1)
        while eos_id == pad_id:
            eos_id = randint(g, 0, V - 1)
    if pad == "eos":
        pad_id = eos_id if eos_id is not None else 0
    elif pad_id is None:
        pad_id = randint(g, 0, V - 1)
        while eos_id is not None and pad_id == eos_id:
            pad_id = randint(g, 0, V - 1)
    prompt = [randint(g, 0, V - 1) for _ in range(L)]
    alternatives, predicate = want if want is not None else ([], None)

    def build(seed: int) -> BeamModel:
        return BeamModel(seed, V, L, eos_id, bias if eos else 0.0, slope if eos else 0.0, scale, dtype)

    def run(settings: dict, margins: Margins | None, model: BeamModel) -> Trace:
        switches = {name: value for name, value in settings.items() if name not in ("es", "lp")}
        return _search(model.rows, prompt, k, T, eos_id, settings.get("lp", lp),
                       settings.get("es", es), r, margins, **switches)

    runs = [lambda model, margins: run({}, margins, model)]
    runs += [lambda model, margins, alt=alt: run(alt, None, model) for alt in alternatives]
    model, _ = redraw(g, build, runs, None if predicate is None else lambda traces: predicate(traces[0], traces[1:]))
    args = {"log_prob_fn": model, "input_ids": torch.tensor(prompt, dtype=torch.int64), "num_beams": k,
            "max_new_tokens": T}
    if keywords != "defaults":
        args.update(eos_token_id=eos_id, length_penalty=lp, early_stopping=es, num_return_sequences=r,
                    pad_token_id=pad_id)
    return Inputs(args=args, show={"call": "positional"} if keywords == "positional" else {})


def _case(V: int, k: int, L: int, T: int, **kw) -> Callable[[torch.Generator], Inputs]:
    return lambda g: _draw(g, V, k, L, T, **kw)


def _differs(*alternatives: dict, also: Callable[[Trace], bool] | None = None) -> tuple:
    """Every alternative returns other tokens than the contract (and `also(the contract's trace)` holds)."""
    return (list(alternatives), lambda main, others: all(o.tokens != main.tokens for o in others)
            and (also is None or also(main)))


def _padded(main: Trace) -> bool:
    return len({len(t) for t in main.tokens}) > 1


PADDED = ([], lambda main, _: _padded(main))


def _random(g: torch.Generator) -> Inputs:
    k = randint(g, 2, 5)
    V = randint(g, max(6, 2 * k), 15)
    return _draw(g, V, k, randint(g, 1, 4), randint(g, 1, 12), eos=pick(g, [True, True, True, True, False]),
                 lp=pick(g, [1.0, 1.0, 0.0, 2.0, -0.5, 0.7, 1.5]), es=pick(g, [True, False, "never"]),
                 r=randint(g, 1, k), pad=pick(g, ["random", "random", "eos", 0, "last"]),
                 dtype=pick(g, [torch.float32, torch.float32, torch.float64]), slope=pick(g, [0.3, 0.6, 1.0]))


FAMILIES = (
    Family("eos_mid_way_padded", _case(10, 3, 3, 8, want=PADDED)),
    Family("one_returned", _case(10, 3, 3, 8, r=1)),
    Family("all_returned", _case(10, 4, 3, 8)),
    Family("no_eos", _case(10, 3, 3, 6, eos=False)),
    Family("no_eos_length_penalty_2", _case(10, 3, 3, 6, eos=False, lp=2.0)),
    Family("length_penalty_0", _case(10, 3, 3, 8, lp=0.0, want=_differs({"lp": 1.0}))),
    Family("length_penalty_2", _case(10, 3, 3, 8, lp=2.0, want=_differs({"lp": 1.0}))),
    Family("length_penalty_negative", _case(10, 3, 3, 8, lp=-0.5, want=_differs({"lp": 1.0}))),
    Family("max_new_tokens_one", _case(10, 3, 3, 1)),
    Family("eos_first_step", _case(10, 3, 3, 6, bias=1.5, slope=0.3, want=([], lambda main, _: 1 in main.eos_steps))),
    Family("eos_at_late_rank_lp0", _case(10, 3, 3, 8, lp=0.0, want=_differs({"eos_ranks": "any"}))),
    Family("eos_at_late_rank_lp_negative", _case(10, 3, 3, 8, lp=-0.5, want=_differs({"eos_ranks": "any"}))),
    Family("one_token_prompt", _case(10, 3, 1, 8)),
    Family("two_beams", _case(6, 2, 3, 8)),
    Family("five_beams", _case(12, 5, 3, 8)),
    Family("vocab_twice_beams", _case(8, 4, 2, 8)),
    Family("pad_equals_eos", _case(10, 3, 3, 8, pad="eos", want=PADDED)),
    Family("pad_zero", _case(10, 3, 3, 8, pad=0, want=PADDED)),
    Family("pad_one", _case(10, 3, 3, 8, pad=1, want=PADDED)),
    Family("pad_last_token", _case(10, 3, 3, 8, pad="last", want=PADDED)),
    Family("float64", _case(10, 3, 3, 8, dtype=torch.float64)),
    Family("float64_early_stopping_true", _case(10, 3, 3, 8, es=True, dtype=torch.float64)),
    Family("twenty_new_tokens", _case(8, 3, 2, 20, es="never", slope=0.15)),
    Family("twenty_new_tokens_no_eos", _case(6, 2, 2, 20, eos=False)),
    Family("peaked_model", _case(10, 3, 3, 8, scale=4.0)),
    Family("positional_call", _case(10, 3, 3, 8, es="never", keywords="positional")),
    Family("defaults", _case(10, 3, 3, 6, eos=False, r=1, keywords="defaults")),
    Family("early_stopping_true_changes", _case(10, 3, 3, 10, es=True, want=_differs({"es": False}))),
    Family("early_stopping_false_changes", _case(10, 3, 3, 10, es=False, want=_differs({"es": True}))),
    Family("never_length_penalty_1_5", _case(10, 3, 3, 10, es="never", lp=1.5, want=_differs({"es": False}))),
    Family("never_against_true", _case(10, 3, 3, 10, es="never", want=_differs({"es": True}))),
    Family("false_stops_early", _case(10, 3, 3, 12, es=False,
                                      want=_differs({"es": "never"}, also=lambda main: main.stopped < 12))),
    Family("never_length_penalty_0", _case(10, 3, 3, 12, es="never", lp=0.0,
                                           want=([], lambda main, _: main.stopped < 12))),
    Family("early_stopping_true_two_finish_in_one_step",
           _case(10, 3, 3, 10, es=True, want=_differs({"fill": "per_offer"}, also=lambda main: main.double_entry))),
    Family("false_heuristic_length_penalty_2", _case(10, 3, 3, 12, lp=2.0, want=_differs({"stop": "no_penalty"}))),
    Family("false_against_worst_finished", _case(10, 3, 3, 12, want=_differs({"stop": "best_finished"}))),
    Family("random", _random, draws=64),
    Family("device", _case(10, 3, 3, 6, es=True, want=PADDED), track_device=True),
    Family("device_false", _case(10, 3, 3, 6, es=False, lp=1.5), track_device=True),
    Family("device_never", _case(10, 3, 3, 6, es="never", lp=1.5), track_device=True),
    Family("device_defaults", _case(10, 3, 3, 5, eos=False, r=1, keywords="defaults"), track_device=True),
)


# ---------------------------------------------------------------- how a case runs, and is judged

_AFTER_IDS = ("num_beams", "max_new_tokens", "eos_token_id", "length_penalty", "early_stopping", "num_return_sequences",
              "pad_token_id")


def call(kata, entry, inputs: Inputs, device: torch.device, track_device: bool = False) -> Outcome:
    """Hand the entry point the case's model, built on input_ids' device (the simulated GPU's in a device case)."""
    positional = inputs.show.get("call") == "positional"

    def run(log_prob_fn: BeamModel, input_ids: torch.Tensor, **rest: Any) -> Any:
        fn = log_prob_fn.build(input_ids.device)
        if positional:
            return entry(fn, input_ids, *(rest[name] for name in _AFTER_IDS))
        return entry(fn, input_ids=input_ids, **rest)

    return spec_api.call(kata, run, inputs, device, track_device)


def tolerance_for(case, item: str, dtype: torch.dtype, expected: torch.Tensor | None):
    """scores at rtol 1e-5, atol 1e-5 × max(1, max|expected|), float32 and float64 alike; sequences exactly."""
    if item != "scores" or expected is None or expected.numel() == 0:
        return None
    rtol, atol = SCORES_TOL
    return rtol, atol * max(1.0, float(expected.double().abs().max()))


# ---------------------------------------------------------------- known mistakes

_RETURNED = ("prompt", "padding", "ids", "scores", "squeeze")


def _variant(**switches):
    def beam_search(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id=None, length_penalty=1.0,
                    early_stopping=False, num_return_sequences=1, pad_token_id=0):
        return _switched(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id, length_penalty,
                         early_stopping, num_return_sequences, pad_token_id, **switches)
    return beam_search


def _switched(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id, length_penalty, early_stopping,
              num_return_sequences, pad_token_id, **switches):
    """The search with a mistake's switches, calling log_prob_fn as a learner's loop does (one call a step)."""
    shape = {name: switches.pop(name) for name in _RETURNED if name in switches}
    dtype = log_prob_fn(input_ids[None]).dtype

    def rows(seqs: list[list[int]]) -> list[list[float]]:
        return log_prob_fn(torch.tensor(seqs, dtype=torch.int64, device=input_ids.device)).double().tolist()

    trace = _search(rows, input_ids.tolist(), num_beams, max_new_tokens, eos_token_id, length_penalty,
                    early_stopping, num_return_sequences, **switches)
    return _answer(trace, input_ids, dtype, pad_token_id, eos_token_id, **shape)


MISTAKES = (
    Mistake("length_counts_prompt", _variant(length="with_prompt")),
    Mistake("length_excludes_eos", _variant(length="without_eos"), variant="divided_by_zero"),
    Mistake("length_excludes_eos", _variant(length="without_eos_at_least_1"), variant="at_least_one"),
    Mistake("eos_accepted_at_any_rank", _variant(eos_ranks="any")),
    Mistake("only_k_candidates", _variant(width=1)),
    Mistake("finished_beams_keep_running", _variant(keep_running=True)),
    Mistake("false_stops_like_true", _variant(stop="false_as_true")),
    Mistake("never_treated_as_false", _variant(stop="never_as_false")),
    Mistake("never_treated_as_true", _variant(stop="never_as_true")),
    Mistake("false_runs_to_max_length", _variant(stop="false_to_max")),
    Mistake("heuristic_without_length_penalty", _variant(stop="no_penalty")),
    Mistake("heuristic_against_best_finished", _variant(stop="best_finished")),
    Mistake("offering_stops_when_list_fills", _variant(fill="per_offer")),
    Mistake("finished_ranked_by_raw_sum", _variant(rank="raw")),
    Mistake("prompt_copied_into_every_beam", _variant(copies=True)),
    Mistake("raw_scores_returned", _variant(returned="raw")),
    Mistake("prompt_not_returned", _variant(prompt=False)),
    Mistake("pads_with_eos", _variant(padding="eos"), variant="always"),
    Mistake("pads_with_eos", _variant(padding="pad_or_eos"), variant="hf_fill"),
    Mistake("int32_ids", _variant(ids="int32")),
    Mistake("float64_scores", _variant(scores="float64")),
    Mistake("best_sequence_squeezed", _variant(squeeze=True)),
)


def _bench(g: torch.Generator) -> Inputs:
    return _draw(g, 15, 5, 8, 20, es="never", slope=0.1)


# `kata check beam-search-hf --bench`: k = 5 beams over 15 tokens, 20 new tokens, early_stopping="never".
BENCH = ("k = 5, V = 15, 20 new tokens, never", _bench)
