"""The gqa and kv-cache specs: enough cases, reproducible inputs, edge cases that are what they
say, a reference that passes every case and matches none of its known mistakes, every mistake
failing and named, and the kv-cache schedule: equal to one causal pass, branching, and the
in-place check that names the cache and the call."""
from __future__ import annotations

import math
from dataclasses import replace

import pytest
import torch
import torch.nn as nn

from checker.text import catalog
from checker.judge import static
from checker.judge import spec as spec_api
from checker.judge.compare import compare_outcome
from checker.specs import _attention as A
from checker.judge.worker import load_entry
from tests.conftest import CORPUS
from tests.spec_support import (  # noqa: F401 — one_thread: an autouse fixture
    cases as _cases,
    family as _family,
    fresh as _fresh,
    one_thread,
    reference_of as _reference,
    roundtrip as _roundtrip,
    spec_of as _spec,
)

KATAS = ("gqa", "kv-cache")
CPU = torch.device("cpu")


def _expected(kata, spec, case):
    return [_roundtrip(a) for a in spec.expected(kata, _reference(kata), case.inputs, CPU)]


def _verdict(kata, spec, case, accepted, got) -> list:
    """What is wrong with got when `accepted` are the right answers, judged as the engine and its
    mistake namer judge: the spec's compare rule, else the generic comparison."""
    custom = spec.compare(kata, case, accepted, got)
    if custom is not None:
        return custom
    verdicts = [compare_outcome(kata, spec, case, a, got) for a in accepted]
    return [] if any(not v for v in verdicts) else verdicts[0]


def _judge(kata, spec, case, fn) -> list:
    """The engine's verdict on one case, in process: [] when fn passes, else what went wrong."""
    try:
        got = spec.call(kata, fn, _fresh(case.inputs), CPU, track_device=case.family.track_device)
    except Exception as exc:  # noqa: BLE001 — a variant that raises fails the case
        return [f"raised {type(exc).__name__}: {exc}"]
    return _verdict(kata, spec, case, _expected(kata, spec, case), _roundtrip(got))


# ---------------------------------------------------------------- the shape of each spec


@pytest.mark.parametrize("kata_id", KATAS)
@pytest.mark.parametrize("seed", (3, 17))
def test_the_reference_passes_every_case_in_process(kata_id, seed):
    """The control for the mistakes test below: the same judge passes the reference."""
    kata, spec = catalog.get(kata_id), _spec(kata_id)
    for case in spec_api.build_cases(spec, seed):
        assert _judge(kata, spec, case, _reference(kata)) == [], case.name


@pytest.mark.parametrize("kata_id,index", [(k, i) for k in KATAS for i in range(len(_spec(k).MISTAKES))],
                         ids=lambda v: str(v))
def test_every_known_mistake_fails_and_is_named(kata_id, index):
    """Each variant fails some case, and on a failing case its own outcome is what the namer
    matches: the reference is not like it, and it is like itself."""
    kata, spec = catalog.get(kata_id), _spec(kata_id)
    assert len(spec.MISTAKES) >= 6
    mistake = spec.MISTAKES[index]
    for case in _cases(kata_id):
        if not _judge(kata, spec, case, mistake.fn):
            continue
        variant = _roundtrip(spec.call(kata, mistake.fn, _fresh(case.inputs), CPU))
        assert _verdict(kata, spec, case, _expected(kata, spec, case), variant), case.name
        assert not _verdict(kata, spec, case, [variant], variant), case.name
        return
    pytest.fail(f"'{mistake.key}' passes every case of {kata_id}")


@pytest.mark.parametrize("kata_id", KATAS)
def test_the_reference_matches_none_of_its_mistakes(kata_id):
    """Where a variant is wrong, the reference must not look like it (else the namer would name a
    mistake on a right answer's near-miss)."""
    kata, spec = catalog.get(kata_id), _spec(kata_id)
    for case in _cases(kata_id)[:40]:
        right = _roundtrip(spec.call(kata, _reference(kata), _fresh(case.inputs), CPU))
        for mistake in spec.MISTAKES:
            try:
                variant = _roundtrip(spec.call(kata, mistake.fn, _fresh(case.inputs), CPU))
            except Exception:  # noqa: BLE001 — a variant that cannot run this case names nothing
                continue
            if _judge(kata, spec, case, mistake.fn):
                assert _verdict(kata, spec, case, [variant], right), (case.name, mistake.key)


# ---------------------------------------------------------------- banned calls


@pytest.mark.parametrize("kata_id", KATAS)
@pytest.mark.parametrize("source", [
    "import torch.nn.functional as F\ny = F.scaled_dot_product_attention(q, k, v, enable_gqa=True)",
    "from torch.nn.functional import scaled_dot_product_attention as sdpa\ny = sdpa(q, k, v)",
    "import torch\ny = torch.nn.functional.scaled_dot_product_attention(q, k, v)",
    "from torch import nn\nm = nn.MultiheadAttention(8, 2)",
    "import torch.nn.functional as F\nF.multi_head_attention_forward",
    "from torch.nn.attention.flex_attention import flex_attention\ny = flex_attention(q, k, v)",
    "from torch.nn.attention import flex_attention",
    "import torch.nn.attention.flex_attention as fa",
    "import torch\ny = torch._scaled_dot_product_flash_attention(q, k, v)",
    "import torch\ny = torch._scaled_dot_product_efficient_attention(q, k, v, None, False)",
    "import torch\ny = torch._scaled_dot_product_cudnn_attention(q, k, v)",
    "import torch as t\ny = t._scaled_dot_product_attention_math(q, k, v)",
    "from torch import _scaled_dot_product_attention_math as m",
    "import torch\ny = torch.ops.aten._scaled_dot_product_flash_attention(q, k, v)",
    "from torch.ops import aten\ny = aten.mm(a, b)",
    "from reference.gqa import GroupedQueryAttention",
])
def test_banned_calls_are_found(kata_id, source):
    import ast

    assert static.banned_uses(ast.parse(source), catalog.get(kata_id).all_banned), source


@pytest.mark.parametrize("kata_id", KATAS)
def test_the_corpus_uses_nothing_banned(kata_id):
    import ast

    for path in (CORPUS / catalog.get(kata_id).module).glob("*.py"):
        assert not static.banned_uses(ast.parse(path.read_text()), catalog.get(kata_id).all_banned), path.name


# ---------------------------------------------------------------- gqa: edge cases are what they say


def _groups(case):
    init = case.inputs.init
    return init["num_heads"], init["num_kv_heads"]


def test_gqa_groupings_cover_mqa_mha_and_groups_of_two_three_and_four():
    group_sizes, kv_heads = set(), set()
    for case in _cases("gqa"):
        if A.BAD_DIMS in case.inputs.show:
            continue
        H, H_kv = _groups(case)
        group_sizes.add(H // H_kv)
        kv_heads.add("mqa" if H_kv == 1 else "mha" if H_kv == H else "gqa")
    assert {2, 3, 4} <= group_sizes and kv_heads == {"mqa", "mha", "gqa"}
    assert _groups(_family("gqa", "multi_query")[0])[1] == 1
    H, H_kv = _groups(_family("gqa", "multi_head")[0])
    assert H == H_kv > 1


@pytest.mark.parametrize("family,sizes", [("group_of_two", (4, 2)), ("group_of_three", (6, 2)),
                                          ("group_of_four", (8, 2)), ("three_groups_of_two", (6, 3))])
def test_gqa_group_families_have_their_group_sizes(family, sizes):
    (case,) = _family("gqa", family)
    assert _groups(case) == sizes
    init = case.inputs.init
    hd = init["embed_dim"] // init["num_heads"]
    assert case.inputs.params["w_k.weight"].shape == (sizes[1] * hd, init["embed_dim"])


def test_gqa_tiling_differs_from_interleaving_on_every_grouped_family():
    """1 < H_kv < H: tiling wires the heads differently, so its outputs differ; MQA and MHA do not tell."""
    kata, spec = catalog.get("gqa"), _spec("gqa")
    tiled = next(m.fn for m in spec.MISTAKES if m.key == "kv_tiled")
    for name in ("group_of_two", "group_of_three", "group_of_four", "three_groups_of_two"):
        (case,) = _family("gqa", name)
        assert _judge(kata, spec, case, tiled), name
    for name in ("multi_query", "multi_head"):
        (case,) = _family("gqa", name)
        assert _judge(kata, spec, case, tiled) == [], name


@pytest.mark.parametrize("family,check", [
    ("causal_mask", lambda a: a["mask"].dim() == 2),
    ("random_mask_b1", lambda a: a["mask"].dim() == 4 and a["mask"].shape[1] == 1),
    ("key_padding", lambda a: a["mask"].shape[1:3] == (1, 1)),
    ("random_mask", lambda a: a["mask"].shape[1] > 1),
    ("fully_masked_rows", lambda a: A.has_dead_rows(a["mask"]) and a["mask"].shape[1] > 1),
    ("fully_masked_rows_float16", lambda a: A.has_dead_rows(a["mask"]) and a["x"].dtype == torch.float16),
    ("seq_len_one", lambda a: a["x"].shape[1] == 1),
    ("batch_one", lambda a: a["x"].shape[0] == 1),
    ("float64", lambda a: a["x"].dtype == torch.float64),
    ("float16", lambda a: a["x"].dtype == torch.float16),
    ("bfloat16", lambda a: a["x"].dtype == torch.bfloat16),
])
def test_gqa_named_family_matches_its_name(family, check):
    cases = _family("gqa", family)
    assert cases and all(check(c.inputs.args) for c in cases), family


def test_gqa_head_dim_one_gradients_and_no_gradients_on_dead_rows():
    (hd1,) = _family("gqa", "head_dim_one")
    assert hd1.inputs.init["embed_dim"] == hd1.inputs.init["num_heads"]
    for seed in (1, 2):
        for case in _cases("gqa", seed):
            if A.has_dead_rows(case.inputs.args.get("mask")) or case.inputs.args.get("x", torch.zeros(1)).dtype in A.LOW_PRECISION:
                assert not case.inputs.grad_of and case.inputs.probe is None, case.name
    assert _family("gqa", "group_of_two")[0].inputs.grad_of == ("x",)


def test_gqa_both_conventions_offered_on_fully_masked_rows_float16_included():
    kata, spec = catalog.get("gqa"), _spec("gqa")
    for name in ("fully_masked_rows", "fully_masked_rows_float16"):
        case = _family("gqa", name)[0]
        uniform, zero = spec.expected(kata, _reference(kata), case.inputs, CPU)
        dead = A.dead_rows(case.inputs.args["mask"], uniform.value[1]).squeeze(-1)
        assert torch.equal(zero.value[1][dead], torch.zeros_like(zero.value[1][dead]))
        L = uniform.value[1].shape[-1]
        torch.testing.assert_close(uniform.value[1][dead].float(), torch.full_like(uniform.value[1][dead].float(), 1 / L),
                                   rtol=1e-3, atol=1e-4)  # 1/L rounded to float16
        assert torch.isfinite(zero.value[0]).all() and torch.isfinite(uniform.value[0]).all()


def test_gqa_zero_convention_equals_a_zero_weight_computation():
    """The zero convention that _attention derives by subtraction (generalised to kv groups) equals
    attention computed with zero weights on the dead rows."""
    kata = catalog.get("gqa")
    case = _family("gqa", "fully_masked_rows")[0]
    inputs = case.inputs
    module = _reference(kata)(**inputs.init).double()
    module.load_state_dict({k: v.double() for k, v in inputs.params.items()})
    x, mask = inputs.args["x"].double(), inputs.args["mask"]
    out, weights = module(x, mask)
    derived = A.zero_dead_rows_module(spec_api.Outcome((out, weights)), replace(inputs, args={"x": x, "mask": mask}), CPU)
    B, L, C = x.shape
    H, H_kv = _groups(case)
    hd = C // H
    v = module.w_v(x).view(B, L, H_kv, hd).transpose(1, 2).repeat_interleave(H // H_kv, 1)
    zeroed = weights.masked_fill(A.dead_rows(mask, weights), 0)
    direct = module.w_o((zeroed @ v).transpose(1, 2).reshape(B, L, C))
    torch.testing.assert_close(derived.value[0], direct.detach())


@pytest.mark.parametrize("name,message", [("indivisible_heads", "10 is not divisible by 4"),
                                          ("indivisible_kv_heads", "6 query heads do not split into 4 equal groups"),
                                          ("indivisible_kv_heads_2", "8 query heads do not split into 3 equal groups")])
def test_gqa_divisibility_failures_must_raise(name, message):
    kata, spec = catalog.get("gqa"), _spec("gqa")
    (case,) = _family("gqa", name)

    class Unchecked(nn.Module):
        def __init__(self, embed_dim, num_heads, num_kv_heads):
            super().__init__()

    assert _judge(kata, spec, case, _reference(kata)) == []
    (problem,) = _judge(kata, spec, case, Unchecked)
    assert message in problem.message and "returned normally" in problem.message


def test_gqa_kv_projections_of_the_wrong_size_are_a_failure_not_a_crash():
    kata, spec = catalog.get("gqa"), _spec("gqa")
    (case,) = _family("gqa", "group_of_two")
    wide = next(m.fn for m in spec.MISTAKES if m.key == "kv_projections_full_width")
    (problem,) = _judge(kata, spec, case, wide)
    assert problem.kind == "params" and "w_k.weight" in problem.message and "nn.Linear(12, 6)" in problem.message

    class Renamed(nn.Module):  # other names: the load error says which, as for every module kata
        def __init__(self, embed_dim, num_heads, num_kv_heads):
            super().__init__()
            self.q_proj = nn.Linear(embed_dim, embed_dim)

    with pytest.raises(spec_api.ParamsError, match="missing"):
        spec.call(kata, Renamed, case.inputs, CPU)


def test_gqa_with_as_many_kv_heads_as_heads_is_mha():
    """H_kv = H: the same weights give multi-head attention's answer."""
    gqa, mha = catalog.get("gqa"), catalog.get("mha")
    (case,) = _family("gqa", "multi_head")
    ours = _reference(gqa)(**case.inputs.init)
    ours.load_state_dict(case.inputs.params)
    theirs = _reference(mha)(case.inputs.init["embed_dim"], case.inputs.init["num_heads"])
    theirs.load_state_dict(case.inputs.params)
    for a, b in zip(ours(**case.inputs.args), theirs(**case.inputs.args)):
        torch.testing.assert_close(a, b)


def test_gqa_low_precision_expected_is_float32_rounded_once():
    kata, spec = catalog.get("gqa"), _spec("gqa")
    for name in ("float16", "bfloat16"):
        (case,) = _family("gqa", name)
        dtype = case.inputs.args["x"].dtype
        (expected,) = spec.expected(kata, _reference(kata), case.inputs, CPU)
        assert all(t.dtype == dtype for t in expected.value)
        low = spec.call(kata, _reference(kata), case.inputs, CPU)
        for a, b in zip(expected.value, low.value):
            torch.testing.assert_close(a, b.detach(), rtol=3e-2, atol=3e-2)


def test_gqa_large_scores_are_in_the_hundreds():
    (case,) = _family("gqa", "large_scores")
    P = {k: v.double() for k, v in case.inputs.params.items()}
    x = case.inputs.args["x"].double()
    B, L, C = x.shape
    H, H_kv = _groups(case)
    q = (x @ P["w_q.weight"].T + P["w_q.bias"]).view(B, L, H, C // H).transpose(1, 2)
    k = (x @ P["w_k.weight"].T + P["w_k.bias"]).view(B, L, H_kv, C // H).transpose(1, 2).repeat_interleave(H // H_kv, 1)
    assert (q @ k.transpose(-2, -1) / math.sqrt(C // H)).abs().max() > 100


# ---------------------------------------------------------------- kv-cache: the schedule


def _schedule_value(kata_id, case, fn=None, dtype=torch.float64):
    """Run a case's schedule with the reference (or fn) in float64, in process."""
    kata, spec = catalog.get(kata_id), _spec(kata_id)
    up = lambda t: t.to(dtype) if isinstance(t, torch.Tensor) and t.is_floating_point() else t  # noqa: E731
    inputs = replace(case.inputs, args={k: up(v) for k, v in case.inputs.args.items()},
                     params={k: up(v) for k, v in case.inputs.params.items()}, grad_of=(), probe=None)
    return spec.call(kata, fn or _reference(kata), inputs, CPU)


def test_kv_cache_schedules_are_what_they_say():
    chunks = {name: _family("kv-cache", name)[0].inputs.args["chunks"] for name in
              ("prefill_only", "prefill_then_steps", "chunked_prefill", "token_by_token")}
    assert len(chunks["prefill_only"]) == 1 and chunks["prefill_only"][0] > 1
    first, *steps = chunks["prefill_then_steps"]
    assert first > 1 and steps and set(steps) == {1}
    assert len(chunks["chunked_prefill"]) > 1 and all(n > 1 for n in chunks["chunked_prefill"])
    assert set(chunks["token_by_token"]) == {1} and len(chunks["token_by_token"]) > 2
    for case in _cases("kv-cache"):
        if "chunks" in case.inputs.args:
            assert sum(case.inputs.args["chunks"]) == case.inputs.args["x"].shape[1], case.name
            assert min(case.inputs.args["chunks"]) >= 1
    given = [c for c in _cases("kv-cache") if "past_kv[0]" in c.inputs.args]
    assert {c.family.name for c in given} >= {"given_cache", "given_cache_decode_step", "given_cache_then_steps", "device"}
    branching = [c for c in _cases("kv-cache") if "x_branch" in c.inputs.args]
    assert {c.family.name for c in branching} >= {"branching", "branching_steps", "branching_given_cache"}


def test_kv_cache_gradients_only_on_single_calls_and_with_a_given_cache():
    for seed in (1, 2):
        for case in _cases("kv-cache", seed):
            args = case.inputs.args
            if case.inputs.grad_of:
                assert len(args["chunks"]) == 1 and "x_branch" not in args, case.name
                assert args["x"].dtype in (torch.float32, torch.float64)
                assert set(case.inputs.grad_of) == {"x"} | ({"past_kv[0]", "past_kv[1]"} if "past_kv[0]" in args else set())
    for name in ("prefill_only", "given_cache", "given_cache_decode_step", "float64_gradients"):
        assert _family("kv-cache", name)[0].inputs.grad_of, name
    assert "past_kv[0]" in _family("kv-cache", "given_cache")[0].inputs.grad_of


@pytest.mark.parametrize("seed", (1, 2, 3))
def test_kv_cache_reference_schedule_equals_one_causal_pass(seed):
    """The property the kata is about: any schedule of calls gives one causal pass's outputs and caches."""
    kata = catalog.get("kv-cache")
    for case in _cases("kv-cache", seed):
        args = case.inputs.args
        if "chunks" not in args or "past_kv[0]" in args:
            continue
        outcome = _schedule_value("kv-cache", case)
        whole = replace(case, inputs=replace(case.inputs, args={"x": args["x"], "chunks": (args["x"].shape[1],)}))
        one = _schedule_value("kv-cache", whole)
        pieces = [outcome.extras[f"out of call {i + 1}"] for i in range(len(args["chunks"]))]
        torch.testing.assert_close(torch.cat(pieces, dim=1), one.extras["out of call 1"], msg=case.name)
        for a, b in zip(outcome.value, one.value):
            torch.testing.assert_close(a, b, msg=case.name)
        # ... and one causal pass is multi-head attention with a causal mask on the same weights.
        mha = _reference(catalog.get("mha"))(case.inputs.init["embed_dim"], case.inputs.init["num_heads"]).double()
        mha.load_state_dict({k: v.double() for k, v in case.inputs.params.items()})
        T = args["x"].shape[1]
        out, _ = mha(args["x"].double(), torch.ones(T, T, dtype=torch.bool).tril())
        torch.testing.assert_close(one.extras["out of call 1"], out.detach(), msg=case.name)
    assert kata.outputs == ("k cache", "v cache")


def test_kv_cache_given_cache_is_the_prefix_of_a_longer_pass():
    """A given cache made of random keys and values acts as P earlier tokens would: its rows come first."""
    (case,) = _family("kv-cache", "given_cache_then_steps")
    outcome = _schedule_value("kv-cache", case)
    k0 = case.inputs.args["past_kv[0]"].double()
    assert torch.equal(outcome.value[0][:, :, :k0.shape[2]], k0)
    assert outcome.value[0].shape[2] == k0.shape[2] + case.inputs.args["x"].shape[1]


def test_kv_cache_branching_continues_the_first_calls_cache():
    (case,) = _family("kv-cache", "branching")
    args = case.inputs.args
    outcome = _schedule_value("kv-cache", case)
    n = len(args["chunks"]) + 1
    prefill = args["chunks"][0]
    x_alone = torch.cat([args["x"][:, :prefill], args["x_branch"]], dim=1)
    whole = replace(case, inputs=replace(case.inputs, args={"x": x_alone, "chunks": (x_alone.shape[1],)}))
    one = _schedule_value("kv-cache", whole)
    torch.testing.assert_close(outcome.extras[f"out of call {n}"], one.extras["out of call 1"][:, prefill:])
    torch.testing.assert_close(outcome.extras[f"k cache after call {n}"], one.value[0])
    assert outcome.extras["caches changed in place"] == ()


def test_kv_cache_in_place_check_names_the_cache_and_the_call():
    kata, spec = catalog.get("kv-cache"), _spec("kv-cache")
    grow = next(m.fn for m in spec.MISTAKES if m.key == "cache_changed_in_place")
    (case,) = _family("kv-cache", "prefill_then_steps")
    problems = _judge(kata, spec, case, grow)
    (problem,) = problems  # a linear schedule: every value is right, only the writes are wrong
    assert problem.kind == "inplace" and problem.item == "past_kv"
    assert "changed past_kv[0], past_kv[1], the cache given to call 2, in place" in problem.message
    assert "; the caches given to calls 3, 4 were changed too" in problem.message

    module = _reference(kata)
    right = _judge(kata, spec, case, module)
    assert right == []

    def scribbler(embed_dim, num_heads):
        m = module(embed_dim, num_heads)
        forward, calls = m.forward, []

        def scribbling(x, past_kv=None):
            calls.append(1)
            out, cache = forward(x, past_kv)
            if len(calls) == 3:
                past_kv[1].data[0, 0, 0, 0] = 7.0
            return out, cache

        m.forward = scribbling
        return m

    problems = _judge(kata, spec, case, scribbler)
    assert [(p.kind, p.item) for p in problems] == [("inplace", "past_kv[1]")]
    assert "call 3" in problems[0].message


def test_kv_cache_a_given_cache_written_into_is_caught():
    kata, spec = catalog.get("kv-cache"), _spec("kv-cache")
    (case,) = _family("kv-cache", "given_cache")

    def writer(embed_dim, num_heads):
        m = _reference(kata)(embed_dim, num_heads)
        forward = m.forward

        def scaled(x, past_kv=None):
            with torch.no_grad():
                past_kv[0].mul_(1.0)  # a no-op write: not a change
                past_kv[0].add_(1.0)
            return forward(x, past_kv)

        m.forward = scaled
        return m

    problems = _judge(kata, spec, case, writer)
    assert any(p.kind == "inplace" and p.item == "past_kv[0]" and "call 1" in p.message for p in problems)


def test_kv_cache_a_wrong_structure_says_what_forward_must_return():
    kata, spec = catalog.get("kv-cache"), _spec("kv-cache")
    (case,) = _family("kv-cache", "prefill_then_steps")

    def flat(embed_dim, num_heads):
        m = _reference(kata)(embed_dim, num_heads)
        forward = m.forward
        m.forward = lambda x, past_kv=None: (lambda out, kv: (out, *kv))(*forward(x, past_kv))
        return m

    (problem,) = _judge(kata, spec, case, flat)
    assert problem.kind == "structure" and "call 1 returned (Tensor(2, 5, 6), Tensor(2, 2, 5, 3), Tensor(2, 2, 5, 3))" in problem.message
    assert "(out, (k, v))" in problem.message


def test_kv_cache_a_stateful_module_fails_only_where_a_cache_is_continued_twice():
    kata, spec = catalog.get("kv-cache"), _spec("kv-cache")
    path = CORPUS / "kv_cache" / "wrong_stateful.py"
    stateful = load_entry(path, kata.entry, "test_kv_stateful")
    failing = {c.family.name for c in _cases("kv-cache") if _judge(kata, spec, c, stateful)}
    assert {"branching", "branching_steps", "branching_given_cache"} <= failing
    assert not failing & {"prefill_then_steps", "chunked_prefill", "token_by_token", "given_cache_then_steps"}


def test_kv_cache_low_precision_expected_is_float32_rounded_once():
    kata, spec = catalog.get("kv-cache"), _spec("kv-cache")
    for name in ("float16", "bfloat16"):
        (case,) = _family("kv-cache", name)
        dtype = case.inputs.args["x"].dtype
        (expected,) = spec.expected(kata, _reference(kata), case.inputs, CPU)
        tensors = [*expected.value, *(v for v in expected.extras.values() if isinstance(v, torch.Tensor))]
        assert len(tensors) == 2 + len(case.inputs.args["chunks"]) and all(t.dtype == dtype for t in tensors)
        low = spec.call(kata, _reference(kata), case.inputs, CPU)
        for a, b in zip(expected.value, low.value):
            torch.testing.assert_close(a, b, rtol=3e-2, atol=3e-2)


def test_kv_cache_indivisible_dims_must_raise():
    kata, spec = catalog.get("kv-cache"), _spec("kv-cache")
    (case,) = _family("kv-cache", "indivisible_dims")

    class Unchecked(nn.Module):
        def __init__(self, embed_dim, num_heads):
            super().__init__()

    assert _judge(kata, spec, case, _reference(kata)) == []
    (problem,) = _judge(kata, spec, case, Unchecked)
    assert "must raise AssertionError or ValueError" in problem.message


def test_kv_cache_device_case_finds_a_tensor_made_on_the_default_device(tmp_path):
    kata, spec = catalog.get("kv-cache"), _spec("kv-cache")
    (case,) = _family("kv-cache", "device")
    source = (CORPUS / "kv_cache" / "right_cat_tril_offset.py").read_text()
    assert ", device=x.device).tril" in source
    path = tmp_path / "kv_cache.py"
    path.write_text(source.replace(", device=x.device).tril", ").tril"))
    careless = load_entry(path, kata.entry, "test_kv_device_probe")
    problems = _judge(kata, spec, case, careless)
    assert problems and "same device" in problems[0]
    assert _judge(kata, spec, case, load_entry(CORPUS / "kv_cache" / "right_cat_tril_offset.py", kata.entry, "test_kv_device_ok")) == []
