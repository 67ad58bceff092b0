"""The rope, swiglu and flash-attention specs: enough cases, reproducible inputs, edge cases that are
what they say, a reference that passes and matches none of its known mistakes, mistakes that fail
and are named, RoPE's position-grown tolerance, and flash's memory rule proved both ways."""
from __future__ import annotations

import ast
import functools
import math

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from checker.text import catalog
from checker.judge import static
from checker.judge import spec as spec_api
from checker.judge.compare import compare_outcome
from checker.judge.results import Status
from checker.specs import _flash
from checker.specs import flash_attention as flash_spec
from checker.specs import rope as rope_spec
from checker.specs import swiglu as swiglu_spec
from checker.judge.worker import load_entry
from tests.conftest import CORPUS, run_check
from tests.spec_support import (  # noqa: F401 — one_thread: an autouse fixture
    cases as _cases,
    family as _family,
    fresh as _fresh,
    one_thread,
    roundtrip as _roundtrip,
    spec_of as _spec,
)

KATAS = ("rope", "swiglu", "flash-attention")
CPU = torch.device("cpu")


@functools.lru_cache(maxsize=None)
def _reference(kata_id):
    kata = catalog.get(kata_id)
    return load_entry(kata.reference_path, kata.entry, f"test_reference_{kata.module}")


@functools.lru_cache(maxsize=None)
def _corpus(kata_id, name):
    kata = catalog.get(kata_id)
    path = CORPUS / kata.module / f"{name}.py"
    if not path.exists():  # a right answer kata ships (`kata solutions`): content/<kata>/solutions/
        path = kata.content_dir / "solutions" / f"{name.removeprefix('right_')}.py"
    return load_entry(path, kata.entry, f"test_corpus_{kata.module}_{name}")


def _run(kata_id, case, fn):
    """fn's outcome on a case, as the learner's child produces it and the parent decodes it."""
    kata, spec = catalog.get(kata_id), _spec(kata_id)
    return _roundtrip(spec.call(kata, fn, _fresh(case.inputs), CPU, track_device=case.family.track_device))


@functools.lru_cache(maxsize=None)
def _expected_cached(kata_id, seed, name):
    kata, spec = catalog.get(kata_id), _spec(kata_id)
    case = next(c for c in _cases(kata_id, seed) if c.name == name)
    hook = getattr(spec, "expected", None)
    alternatives = hook(kata, _reference(kata_id), case.inputs, CPU) if hook else [spec.call(kata, _reference(kata_id), case.inputs, CPU)]
    return [_roundtrip(a) for a in alternatives]


def _expected(kata_id, case):
    return _expected_cached(kata_id, case.seed, case.name)


def _judge(kata_id, case, fn) -> list:
    """The engine's verdict on one case, in process: [] when fn passes, else what went wrong."""
    kata, spec = catalog.get(kata_id), _spec(kata_id)
    try:
        got = _run(kata_id, case, fn)
    except Exception as exc:  # noqa: BLE001 — a variant that raises fails the case
        return [f"raised {type(exc).__name__}: {exc}"]
    alternatives = _expected(kata_id, case)
    custom = spec.compare(kata, case, alternatives, got) if hasattr(spec, "compare") else None
    if custom is not None:
        return custom
    verdicts = [compare_outcome(kata, spec, case, a, got) for a in alternatives]
    return [] if any(not v for v in verdicts) else verdicts[0]


def _named(kata_id, case, got):
    """The mistake the report would name for this output on this case (checker/judge/mistakes.py's rule), or None."""
    kata, spec = catalog.get(kata_id), _spec(kata_id)
    right = _expected(kata_id, case)
    for mistake in spec.MISTAKES:
        try:
            variant = _run(kata_id, case, mistake.fn)
        except Exception:  # noqa: BLE001 — a variant that cannot run this case names nothing
            continue
        if any(not compare_outcome(kata, spec, case, r, variant) for r in right):
            continue  # right on this case: it cannot explain a failure
        if not compare_outcome(kata, spec, case, variant, got):
            return mistake.key
    return None


# ---------------------------------------------------------------- the shape of each spec


@pytest.mark.parametrize("kata_id", KATAS)
def test_the_reference_passes_every_case_in_process(kata_id):
    """The control for the tests of the mistakes below: their judge passes the reference (on one seed; that the
    reference passes as a learner's file on three is tests/katas/test_corpus.py's)."""
    for case in _cases(kata_id, 1):
        assert _judge(kata_id, case, _reference(kata_id)) == [], case.name


# ---------------------------------------------------------------- known mistakes: never the reference
# (that each fails and is named as itself is tests/katas/test_mistakes_named.py's)


@pytest.mark.parametrize("kata_id", KATAS)
def test_the_reference_matches_none_of_its_mistakes(kata_id):
    for case in _cases(kata_id, 4):
        assert _named(kata_id, case, _run(kata_id, case, _reference(kata_id))) is None, case.name


@pytest.mark.parametrize("kata_id", KATAS)
def test_at_least_eight_mistakes_with_text(kata_id):
    spec, text = _spec(kata_id), catalog.get(kata_id).text("en")
    assert len(spec.MISTAKES) >= 8
    assert {m.key for m in spec.MISTAKES} == set(text.mistakes)


@pytest.mark.parametrize("path,label", [
    (CORPUS / "rope" / "wrong_interleaved_complex.py", "the interleaved pairing (2i, 2i+1) of GPT-J / Meta's LLaMA instead of rotate-half"),
    (CORPUS / "rope" / "wrong_half_angles.py", "angles computed in half precision"),
    (CORPUS / "swiglu" / "wrong_gelu.py", "GELU instead of SiLU (that is GEGLU)"),
    (CORPUS / "flash_attention" / "wrong_plain_attention.py", "the full score matrix materialised"),
    (CORPUS / "flash_attention" / "wrong_output_not_rescaled.py", "the sum rescaled but not the output accumulator"),
])
def test_a_failing_file_is_told_which_mistake_it_looks_like(path, label):
    result = run_check(path)
    assert result.status is Status.FAIL
    assert any(c.mistake == label for c in result.failures()), [(c.name, c.mistake) for c in result.failures()][:4]


# ---------------------------------------------------------------- rope: families, layout, calls, tolerance


@pytest.mark.parametrize("family,check", [
    ("start_pos_zero", lambda a: a["start_pos"] == 0),
    ("start_pos_100", lambda a: a["start_pos"] == 100),
    ("start_pos_1000", lambda a: a["start_pos"] == 1000),
    ("start_pos_4000", lambda a: a["start_pos"] == 4000),
    ("decode_far", lambda a: a["x"].shape[2] == 1 and a["start_pos"] >= 4000),
    ("base_100", lambda a: a["base"] == 100.0),
    ("base_500000", lambda a: a["base"] == 500000.0),
    ("batch_and_heads", lambda a: a["x"].shape[0] > 1 and a["x"].shape[1] > 1),
    ("non_contiguous_view", lambda a: not a["x"].is_contiguous()),
    ("non_contiguous_view_far", lambda a: not a["x"].is_contiguous()),
    ("float64", lambda a: a["x"].dtype == torch.float64),
    ("float16_at_600", lambda a: a["x"].dtype == torch.float16 and a["start_pos"] == 600),
    ("bfloat16_at_300", lambda a: a["x"].dtype == torch.bfloat16 and a["start_pos"] == 300),
    ("defaults", lambda a: set(a) == {"x"}),
    ("default_base", lambda a: set(a) == {"x", "start_pos"}),
    *[(f"head_dim_{d}", lambda a, d=d: a["x"].shape[-1] == d) for d in (2, 4, 8, 16, 32, 64, 128)],
])
def test_rope_family_matches_its_name(family, check):
    cases = _family("rope", family)
    assert cases, f"rope has no family {family}"
    assert all(check(c.inputs.args) for c in cases)


def test_rope_small_head_dims_are_not_only_two():
    """D = 2 makes both pairings coincide: smaller-than-8 cases with D = 4 must exist too."""
    dims = {c.inputs.args["x"].shape[-1] for c in _cases("rope") if c.inputs.args["x"].shape[-1] < 8}
    assert {2, 4} <= dims


def _recorder(seen):
    def apply_rope(*args, **kwargs):
        seen.append((args, kwargs))
        return _reference("rope")(*args, **kwargs)
    return apply_rope


@pytest.mark.parametrize("family", ["non_contiguous_view", "non_contiguous_view_far"])
def test_the_view_case_hands_the_learner_a_non_contiguous_view(family):
    (case,) = _family("rope", family)
    seen = []
    rope_spec.call(catalog.get("rope"), _recorder(seen), case.inputs, CPU)
    (args, kwargs), = seen
    x = args[0] if args else kwargs["x"]
    assert not x.is_contiguous() and x.transpose(1, 2).is_contiguous()
    with pytest.raises(RuntimeError):
        x.view(-1, x.shape[-1])  # what a .view()-based answer does, and why it fails this case


def test_transposed_view_holds_whatever_the_copy_to_the_device_did():
    """On a GPU, .to(device) may hand back a contiguous copy: the hook rebuilds the view either way."""
    B, L, H, D = 2, 5, 3, 4
    x = torch.randn(B, H, L, D)  # contiguous: as a copy that lost the layout
    view = rope_spec.transposed_view(x)
    assert not view.is_contiguous() and torch.equal(view, x)
    already = torch.randn(B, L, H * D).view(B, L, H, D).transpose(1, 2)
    assert rope_spec.transposed_view(already) is already


def test_rope_calls_positionally_by_keyword_and_with_the_defaults():
    how = {}
    for family in ("positional_call", "keyword_call", "defaults", "default_base"):
        (case,) = _family("rope", family)
        seen = []
        rope_spec.call(catalog.get("rope"), _recorder(seen), case.inputs, CPU)
        how[family] = (len(seen[0][0]), sorted(seen[0][1]))
    assert how == {"positional_call": (3, []), "keyword_call": (0, ["base", "start_pos", "x"]),
                   "defaults": (0, ["x"]), "default_base": (0, ["start_pos", "x"])}


def _rope_with_angles(dtype):
    """Hugging Face's way (inv_freq and angles in `dtype`, cos/sin cast to x's dtype)."""
    def apply_rope(x, start_pos=0, base=10000.0):
        D, L = x.shape[-1], x.shape[-2]
        adt = x.dtype if dtype is None else dtype
        inv_freq = 1.0 / (base ** (torch.arange(0, D, 2, dtype=torch.int64, device=x.device).to(adt) / D))
        t = torch.arange(start_pos, start_pos + L, dtype=torch.int64, device=x.device).to(adt)
        emb = torch.cat([torch.outer(t, inv_freq)] * 2, dim=-1)
        x1, x2 = x.chunk(2, dim=-1)
        return x * emb.cos().to(x.dtype) + torch.cat((-x2, x1), dim=-1) * emb.sin().to(x.dtype)
    return apply_rope


@pytest.mark.parametrize("seed", (1, 2))
def test_float32_angles_pass_every_rope_case_even_float64_far_out(seed):
    for case in _cases("rope", seed):
        assert _judge("rope", case, _rope_with_angles(torch.float32)) == [], case.name


def test_float32_angles_would_fail_without_the_grown_tolerance():
    """The growth is needed: at position 4000 float32 angles miss the plain float64 / float32 tolerance."""
    kata = catalog.get("rope")
    for name in ("float64_far", "start_pos_4000"):
        (case,) = _family("rope", name)
        got = _run("rope", case, _rope_with_angles(torch.float32))
        plain = type("Plain", (), {"TOLERANCES": {}})  # no tolerance_for hook: the table alone
        assert compare_outcome(kata, plain, case, _expected("rope", case)[0], got), name


@pytest.mark.parametrize("family", ["float16_at_600", "bfloat16_at_300"])
def test_half_precision_angles_fail_by_far_more_than_the_tolerance(family):
    (case,) = _family("rope", family)
    problems = _judge("rope", case, _rope_with_angles(None))
    assert problems and problems[0].mismatch.max_abs > 5 * problems[0].mismatch.atol


def test_rope_tolerance_grows_with_position_and_size():
    (near,) = _family("rope", "start_pos_zero")
    (far,) = _family("rope", "start_pos_4000")
    r0, a0 = rope_spec.tolerance_for(near, "out", torch.float32, None)
    r1, a1 = rope_spec.tolerance_for(far, "out", torch.float32, None)
    assert r0 == r1 == 1e-4
    scale = max(1.0, float(far.inputs.args["x"].abs().max()))
    assert a1 == pytest.approx((1e-5 + 2.5e-7 * (4000 + far.inputs.args["x"].shape[2])) * scale)
    assert a1 > 50 * a0


# ---------------------------------------------------------------- swiglu: the module protocol


def test_swiglu_module_is_converted_to_the_case_dtype():
    dtypes = []

    class Recording(nn.Module):
        def __init__(self, dim, hidden_dim):
            super().__init__()
            self.inner = _reference("swiglu")(dim, hidden_dim)
            self.w1, self.w2, self.w3 = self.inner.w1, self.inner.w2, self.inner.w3
            del self.inner

        def forward(self, x):
            dtypes.append((x.dtype, self.w1.weight.dtype, self.w2.weight.dtype))
            return self.w2(F.silu(self.w1(x)) * self.w3(x))

    for family in ("float64", "float16", "bfloat16"):
        (case,) = _family("swiglu", family)
        assert _judge("swiglu", case, Recording) == [], family
    assert [d[0] for d in dtypes] == [torch.float64, torch.float16, torch.bfloat16]
    assert all(len(set(d)) == 1 for d in dtypes)


def test_swiglu_half_expected_is_the_float32_answer_rounded_once():
    (case,) = _family("swiglu", "bfloat16")
    (expected,) = swiglu_spec.expected(catalog.get("swiglu"), _reference("swiglu"), case.inputs, CPU)
    up = {k: p.to(torch.bfloat16).float() for k, p in case.inputs.params.items()}
    x = case.inputs.args["x"].float()
    exact = F.silu(x @ up["w1.weight"].T) * (x @ up["w3.weight"].T) @ up["w2.weight"].T
    assert expected.value.dtype == torch.bfloat16
    assert torch.equal(expected.value, exact.to(torch.bfloat16))


def test_swiglu_gradients_cover_x_and_every_weight():
    (case,) = _family("swiglu", "rank_2")
    got = _run("swiglu", case, _reference("swiglu"))
    assert set(got.extras) == {"grad of x", "grad of w1.weight", "grad of w2.weight", "grad of w3.weight"}


@pytest.mark.parametrize("family", ["rank_1", "rank_2", "rank_3", "rank_4"])
def test_swiglu_ranks(family):
    (case,) = _family("swiglu", family)
    assert case.inputs.args["x"].dim() == int(family[-1])


def test_swiglu_parameter_shapes_case_reports_the_layout():
    (case,) = _family("swiglu", "parameter_shapes")

    class Transposed(nn.Module):
        def __init__(self, dim, hidden_dim):
            super().__init__()
            self.w1 = nn.Linear(dim, hidden_dim, bias=False)
            self.w3 = nn.Linear(dim, hidden_dim, bias=True)
            self.w2 = nn.Linear(dim, hidden_dim, bias=False)

    problems = _judge("swiglu", case, Transposed)
    assert len(problems) == 1 and "w3.bias" in problems[0].message and "w2.weight [20, 8]" in problems[0].message
    assert _judge("swiglu", case, _reference("swiglu")) == []


# ---------------------------------------------------------------- flash: families and alignment


@pytest.mark.parametrize("family,check", [
    ("square", lambda a: a["q"].shape[2] == a["k"].shape[2] and not a["causal"]),
    ("square_causal", lambda a: a["q"].shape[2] == a["k"].shape[2] and a["causal"]),
    ("lq_lt_lk_causal", lambda a: a["q"].shape[2] < a["k"].shape[2] and a["causal"]),
    ("lq_gt_lk", lambda a: a["q"].shape[2] > a["k"].shape[2] and not a["causal"]),
    ("decode", lambda a: a["q"].shape[2] == 1),
    ("block_size_one", lambda a: a["block_size"] == 1),
    ("block_larger_than_lk", lambda a: a["block_size"] > a["k"].shape[2]),
    ("block_not_dividing", lambda a: a["k"].shape[2] % a["block_size"] != 0),
    ("default_block_size", lambda a: "block_size" not in a and "causal" not in a and a["k"].shape[2] > 2 * 64),
    ("dv_gt_d", lambda a: a["v"].shape[-1] > a["q"].shape[-1]),
    ("head_dim_one", lambda a: a["q"].shape[-1] == 1),
    ("query_tiles_causal", lambda a: a["q"].shape[2] % a["block_size"] != 0 and a["causal"]),
    ("float64", lambda a: a["q"].dtype == torch.float64),
    ("float16", lambda a: a["q"].dtype == torch.float16),
    ("bfloat16", lambda a: a["q"].dtype == torch.bfloat16),
    ("memory_long", lambda a: (a["q"].shape[2], a["k"].shape[2], a["block_size"]) == (256, 1024, 32)),
    ("memory_decode_causal", lambda a: (a["q"].shape[2], a["k"].shape[2], a["causal"]) == (2, 1024, True)),
])
def test_flash_family_matches_its_name(family, check):
    cases = _family("flash-attention", family)
    assert cases, f"flash-attention has no family {family}"
    assert all(check(c.inputs.args) for c in cases)


def test_flash_causal_cases_never_have_more_queries_than_keys():
    for seed in (1, 2, 3):
        for case in _cases("flash-attention", seed):
            a = case.inputs.args
            assert not a.get("causal") or a["q"].shape[2] <= a["k"].shape[2], case.name


def test_large_scores_reach_the_hundreds():
    for case in _family("flash-attention", "large_scores") + _family("flash-attention", "large_scores_causal"):
        q, k = case.inputs.args["q"].double(), case.inputs.args["k"].double()
        assert (q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])).abs().max() > 100, case.name


def test_the_reference_is_bottom_right_aligned():
    q, k, v = torch.randn(1, 2, 5, 8, dtype=torch.float64), torch.randn(1, 2, 13, 8, dtype=torch.float64), torch.randn(1, 2, 13, 3, dtype=torch.float64)
    mask = torch.ones(5, 13, dtype=torch.bool).tril(13 - 5)  # query i sees keys j <= 8 + i
    scores = (q @ k.transpose(-2, -1) / math.sqrt(8)).masked_fill(~mask, -math.inf)
    torch.testing.assert_close(_reference("flash-attention")(q, k, v, block_size=4, causal=True), torch.softmax(scores, -1) @ v)


# ---------------------------------------------------------------- flash: the memory rule, proved both ways


def _memory(fn, case):
    outcome = flash_spec.call(catalog.get("flash-attention"), fn, _fresh(case.inputs), CPU)
    return outcome.extras[flash_spec.MEMORY], outcome.extras[flash_spec.DETAIL]


MEMORY_CASES = ("memory_long", "memory_long_causal", "memory_decode", "memory_decode_causal")


@pytest.mark.parametrize("family", MEMORY_CASES)
def test_the_memory_cases_bite_as_documented(family):
    (case,) = _family("flash-attention", family)
    _, detail = _memory(_reference("flash-attention"), case)
    assert detail["bound"] == (16_384 if "long" in family else 128)
    assert detail["full"] == (524_288 if "long" in family else 4_096)


@pytest.mark.parametrize("family", MEMORY_CASES)
def test_a_full_score_matrix_fails_the_memory_rule(family):
    (case,) = _family("flash-attention", family)
    verdict, detail = _memory(_corpus("flash-attention", "wrong_plain_attention"), case)
    assert verdict == f"{detail['full']} elements" and set(detail["mixes"]) == {"q", "k"}


@pytest.mark.parametrize("family", MEMORY_CASES)
def test_a_full_row_per_query_fails_only_the_decode_shaped_case(family):
    (case,) = _family("flash-attention", family)
    verdict, detail = _memory(_corpus("flash-attention", "wrong_row_at_a_time"), case)
    if "decode" in family:
        assert verdict != flash_spec.OK and detail["elements"] == 2 * 1024  # B·H rows of Lk scores
    else:
        assert verdict == flash_spec.OK


@pytest.mark.parametrize("name", ["right_query_and_key_tiles", "right_head_loop", "right_inplace_accumulators",
                                  "right_fa1_normalised_each_block"])
@pytest.mark.parametrize("family", MEMORY_CASES)
def test_tiled_answers_keep_the_memory_rule(name, family):
    (case,) = _family("flash-attention", family)
    verdict, detail = _memory(_corpus("flash-attention", name), case)
    assert verdict == flash_spec.OK, detail
    assert detail["elements"] <= detail["bound"]


@pytest.mark.parametrize("name,expected", [("wrong_queries_tiled_only", 2 * 32 * 1024), ("wrong_fixed_block", 2 * 256 * 128),
                                           ("wrong_merge_partials_at_end", 32 * 2 * 256 * 16)])
def test_query_only_tiling_a_fixed_block_and_kept_partials_break_the_rule(name, expected):
    (case,) = _family("flash-attention", "memory_long")
    verdict, detail = _memory(_corpus("flash-attention", name), case)
    assert verdict == f"{expected} elements", detail


def _watch(fn, q, k, v):
    return _flash.watch(lambda: fn(q, k, v), {"q": q, "k": k, "v": v})[1]


def test_the_watch_follows_values_through_in_place_writes_views_and_out():
    q, k, v = torch.randn(1, 1, 6, 4), torch.randn(1, 1, 10, 4), torch.randn(1, 1, 10, 4)

    def into_a_buffer(q, k, v):  # block by block into a preallocated [Lq, Lk] buffer: counts at full size
        buf = torch.zeros(6, 10)
        for j in range(0, 10, 2):
            buf[:, j:j + 2] = q[0, 0] @ k[0, 0, j:j + 2].T
        return buf

    def with_out(q, k, v):
        buf = torch.empty(6, 10)
        torch.mm(q[0, 0], k[0, 0].T, out=buf)
        return buf

    def through_views(q, k, v):
        big = torch.zeros(2, 6, 10)
        big[1].view(60).copy_((q[0, 0] @ k[0, 0].T).reshape(60))
        return big

    assert _watch(into_a_buffer, q, k, v).largest.elements == 60
    assert _watch(with_out, q, k, v).largest.elements == 60
    assert _watch(through_views, q, k, v).largest.elements == 120


def test_mixing_q_and_k_counts_even_without_a_product():
    q, k, v = torch.randn(1, 2, 8, 4), torch.randn(1, 2, 8, 4), torch.randn(1, 2, 8, 4)
    made = _watch(lambda q, k, v: torch.cat([q, k], dim=2), q, k, v).largest
    assert made.elements == 128 and made.mixes == ("q", "k")
    assert _watch(lambda q, k, v: q.clone() + v, q, k, v).largest is None  # q and v alone: no scores


def test_a_broadcast_product_counts_at_its_full_size():
    q, k, v = torch.randn(1, 1, 16, 4), torch.randn(1, 1, 32, 4), torch.randn(1, 1, 32, 4)

    def broadcast(q, k, v):  # p [Lq, block, 1] * v [1, block, Dv] summed over the block: an [Lq, block, Dv] tensor
        p = torch.softmax(q[0, 0] @ k[0, 0, :8].T, -1)
        return (p[:, :, None] * v[0, 0, :8][None]).sum(1)

    assert _watch(broadcast, q, k, v).largest.elements == 16 * 8 * 4


def test_a_fused_kernel_is_seen_even_when_the_syntax_tree_is_fooled():
    q, k, v = torch.randn(1, 2, 8, 4), torch.randn(1, 2, 8, 4), torch.randn(1, 2, 8, 4)
    sneaky = getattr(F, "scaled_dot_" + "product_attention")
    assert _watch(lambda q, k, v: sneaky(q, k, v), q, k, v).fused is not None
    (case,) = _family("flash-attention", "memory_long")
    problems = _judge("flash-attention", case, lambda q, k, v, block_size=64, causal=False: sneaky(q, k, v, is_causal=causal))
    assert any(p.kind == "rule" and "fused attention kernel" in p.message for p in problems)


def test_the_watch_runs_on_the_memory_cases_and_only_there():
    """The watch is most of a check's time: the cases that test values run without it, every memory case under it."""
    kata = catalog.get("flash-attention")
    for case in _cases("flash-attention"):
        if case.name.startswith("random.") and int(case.name.split(".")[1]) > 3:
            continue  # a few draws say it for all
        extras = flash_spec.call(kata, _reference("flash-attention"), _fresh(case.inputs), CPU,
                                 track_device=case.family.track_device).extras
        assert (flash_spec.MEMORY in extras) == (case.family.name in MEMORY_CASES), case.name


def test_the_report_draws_what_was_made_against_what_was_allowed():
    (case,) = _family("flash-attention", "memory_long")
    problems = _judge("flash-attention", case, _corpus("flash-attention", "wrong_plain_attention"))
    (rule,) = [p for p in problems if p.kind == "rule"]
    assert "524,288" in rule.message and "16,384" in rule.message and "[1, 2, 256, 1024]" in rule.message
    assert "from q, k" in rule.message and "1·2·256·max(32, 16)" in rule.message
    assert all(len(line) <= 76 for line in rule.message.splitlines()[1:-1]), "the picture must fit a panel"


def test_storages_are_kept_alive_so_addresses_are_never_reused():
    q, k, v = torch.randn(1, 1, 64, 8), torch.randn(1, 1, 64, 8), torch.randn(1, 1, 64, 8)

    def churn(q, k, v):  # scores of one block freed, then a same-sized q-only buffer made: must not inherit tags
        for j in range(0, 64, 8):
            s = q[0, 0] @ k[0, 0, j:j + 8].T
            del s
            torch.cat([q[0, 0]] * 8)  # 4096 elements from q alone
        return q[0, 0].clone()

    assert _watch(churn, q, k, v).largest.elements == 64 * 8


def test_bench_note_compares_with_the_full_matrix():
    inputs = spec_api.Inputs(args={"q": torch.randn(1, 2, 256, 16), "k": torch.randn(1, 2, 256, 16), "v": torch.randn(1, 2, 256, 16),
                                   "block_size": 32, "causal": True})
    note = flash_spec.bench_note(catalog.get("flash-attention"), _reference("flash-attention"), inputs, CPU)
    assert "16,384 elements" in note and "131,072" in note and "8×" in note


# ---------------------------------------------------------------- banned calls


@pytest.mark.parametrize("name", catalog.BANNED_GROUPS["attention-kernels"])
def test_every_attention_kernel_is_banned_through_imports_and_aliases(name):
    banned = catalog.get("flash-attention").all_banned
    module, _, attr = name.rpartition(".")
    rest = name.removeprefix("torch.")
    sources = [
        f"import torch\ny = torch.{rest}",
        f"import torch as T\ny = T.{rest}",
        f"from {module} import {attr}",
        f"from {module} import {attr} as renamed\ny = renamed",
    ]
    if name.startswith("torch.nn.functional."):
        sources += [f"import torch.nn.functional as F\ny = F.{attr}", f"from torch.nn import functional as fn\ny = fn.{attr}"]
    if name.startswith("torch.nn.") and name.count(".") == 2:
        sources += [f"from torch import nn\ny = nn.{attr}", f"import torch.nn as nn\ny = nn.{attr}"]
    for source in sources:
        assert static.banned_uses(ast.parse(source), banned), source


@pytest.mark.parametrize("source", [
    "import torch.nn.functional as F\np = F.softmax(s, dim=-1)",
    "import torch\nm = torch.maximum(a, b)\ne = torch.exp(s - m)",
    "from torch.nn.attention.bias import causal_lower_right",
    "import torch\nmask = torch.ones(3, 5, dtype=torch.bool).tril(2)",
])
def test_what_flash_needs_is_allowed(source):
    assert not static.banned_uses(ast.parse(source), catalog.get("flash-attention").all_banned)


@pytest.mark.parametrize("kata_id", ["rope", "swiglu"])
def test_rope_and_swiglu_ban_nothing_but_the_answers(kata_id):
    assert catalog.get(kata_id).banned == ()
    assert not static.banned_uses(ast.parse("import torch.nn.functional as F\nfrom transformers import AutoModel\ny = F.silu(x)"),
                                  catalog.get(kata_id).all_banned)
