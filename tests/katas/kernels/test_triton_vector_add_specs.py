"""triton-vector-add's own rules, and the shared kernel hooks it is the model for (checker/specs/_kernels.py).

The named cases are the contract's edge-case families (n = 1; n a multiple of BLOCK; a ragged last block 3·64 + 17;
n < BLOCK; float16; BLOCK 1024 > n; the default BLOCK on 600 elements) and the random draws stay in its ranges and
its budget (≤ 10 programs a case). Under Triton's interpreter: the guard record survives the codec, the comparison
says the first rule broken in the contract's order, the namer's match ignores what two writings of one slip need not
share (the stray-lane count, the quoted allocation), the time limit names the launches, the refusals are static, and
each known mistake fails a named case on every seed."""
from __future__ import annotations

import pytest
import torch

from checker.judge import kernel_check, static
from checker.judge.spec import Outcome
from checker.text import catalog
from tests.namer import first_failing_named_case
from tests.spec_support import cases, fresh, reference_of, roundtrip, spec_of

pytestmark = pytest.mark.kernels

KATA = "triton-vector-add"
CPU = torch.device("cpu")
NAMED = {"one_element": (1, 64), "multiple_of_block": (256, 64), "ragged_last_block": (209, 64),
         "shorter_than_block": (37, 64), "float16": (429, 128), "block_larger_than_n": (300, 1024),
         "default_block": (600, None)}


def test_the_named_cases_are_the_contract_families_and_every_case_fits_the_budget():
    drawn = cases(KATA)
    named = {c.name: c for c in drawn if c.family.name != "random"}
    assert {n: (c.inputs.args["x"].numel(), c.inputs.args.get("BLOCK")) for n, c in named.items()} == NAMED
    assert named["float16"].inputs.args["x"].dtype == torch.float16 and named["default_block"].family.track_device
    assert len(drawn) == 100
    spec = spec_of(KATA)
    randoms = [c for seed in (1, 2, 3) for c in cases(KATA, seed) if c.family.name == "random"]
    assert {c.inputs.args["BLOCK"] for c in randoms} == {64, 128, 256}
    assert all(1 <= c.inputs.args["x"].numel() <= 600 for c in randoms)
    assert 0.2 < sum(c.inputs.args["x"].dtype == torch.float16 for c in randoms) / len(randoms) < 0.45
    for c in drawn:  # programs × trips: one trip, at most 10 programs
        x = c.inputs.args["x"]
        assert x.dtype == c.inputs.args["y"].dtype and x.shape == c.inputs.args["y"].shape and x.is_contiguous()
        assert -(-x.numel() // spec.block_bound(c.inputs.args)) <= 10


def test_the_reference_is_the_float64_sum_rounded_once():
    ref = reference_of(catalog.get(KATA))
    for dtype in (torch.float32, torch.float16):
        x, y = torch.randn(600, dtype=dtype), torch.randn(600, dtype=dtype)
        assert torch.equal(ref(x, y), x + y)  # one rounding of an exact sum: IEEE addition itself


RIGHT = '''
import torch
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + tl.load(y_ptr + offs, mask=offs < n), mask=offs < n)


def add(x, y, BLOCK=256):
    out = torch.empty_like(x)
    k[(triton.cdiv(x.numel(), BLOCK),)](x, y, out, x.numel(), BLOCK=BLOCK)
    return out
'''


def _load(source: str, tmp_path, name: str = "learner"):
    from checker.judge.worker import load_entry

    path = tmp_path / f"{name}.py"
    path.write_text(source)
    return load_entry(path, "add", f"test_vector_add_{name}_{abs(hash(str(tmp_path)))}")


def test_the_guard_record_travels_and_the_comparison_says_the_first_rule_broken(tmp_path):
    spec, kata = spec_of(KATA), catalog.get(KATA)
    case = next(c for c in cases(KATA) if c.name == "ragged_last_block")
    expected = [roundtrip(o) for o in spec.expected(kata, reference_of(kata), fresh(case.inputs), CPU)]
    got = roundtrip(spec.call(kata, _load(RIGHT, tmp_path), fresh(case.inputs), CPU))
    record = got.extras[kernel_check.GUARD]
    assert record["launches"] == 1 and record["programs"] == 4 and record["unstored"] == 0
    assert record["kernels"] == [{"kernel": "k", "grid": [4, 1, 1], "signature": {
        "x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": {"constexpr": 64}}}]
    assert spec.compare(kata, case, expected, got) == []
    launches = kernel_check.launches([got, got])
    assert len(launches) == 1 and launches[0].kernel == "k"

    def said(**guard):
        record = {"launches": 1, "unstored": 0, "total": 209, **guard}
        problems = spec.compare(kata, case, expected, type(got)(got.value, {kernel_check.GUARD: record}))
        return [(p.kind, p.message.split(":")[0]) for p in problems]

    everything = dict(error=["race", "programs (0, 0, 0) and (1, 0, 0) both store"], around=["x"], modified=["y"],
                      no_device=["torch.empty(n)"], unstored=3)
    assert said(**everything) == [("rule", "programs (0, 0, 0) and (1, 0, 0) both store")]
    assert said(**{**everything, "error": None})[0][0] == "inplace"
    assert said(launches=0)[0] == ("rule", "your wrapper launched no kernel")
    assert said(no_device=["torch.empty(n)"], unstored=3)[0][0] == "device"
    assert said(unstored=3) == [("rule", "3 of 209 returned elements were never stored by your kernel")]


def test_the_namer_matches_a_slip_whatever_the_stray_count_or_the_allocation_quoted():
    spec = spec_of(KATA)
    case = next(c for c in cases(KATA) if c.name == "ragged_last_block")

    def seen(message):
        return Outcome(None, {kernel_check.GUARD: {"error": ["out_of_bounds", message], "launches": 1}})

    loads = "program (3, 0, 0) loads {} elements outside every tensor passed to the kernel (unmasked lanes, or …)"
    assert spec.matches(None, case, [], seen(loads.format(47)), seen(loads.format(31)))
    assert not spec.matches(None, case, [], seen(loads.format(47)), seen(loads.replace("loads", "stores").format(47)))
    one = "program (3, 0, 0) loads 1 element outside every tensor passed to the kernel (an unmasked lane, or …)"
    assert not spec.matches(None, case, [], seen(one), seen(loads.format(47)))
    race = "programs (0, 0, 0) and (1, 0, 0) both store to 63 elements of `{}` in one launch"
    assert spec.matches(None, case, [], seen(race.format("torch.empty_like(x)")), seen(race.format("z")))


def test_the_time_limit_names_the_launches_of_the_case_it_stopped_in():
    messages = [({"m": "start", "i": 0}, []), ({"m": "launch", "programs": 9}, []), ({"m": "case", "i": 0}, []),
                ({"m": "start", "i": 1}, []), ({"m": "launch", "programs": 4096}, [])]
    said = kernel_check.timeout_message(messages, "30", "random.7")
    assert "launched 4,096 programs for this case" in said and "random.7" in said
    assert kernel_check.timeout_message(messages[:4], "30", "random.7") is None


def test_autotune_and_torch_in_a_kernel_are_refused_before_running():
    kata = catalog.get(KATA)
    source = RIGHT.replace("@triton.jit", '@triton.autotune(configs=[], key=["n"])\n@triton.jit')
    finding = static.inspect("# kata: triton-vector-add" + source, "mine.py", kata.entry, kata.all_banned)
    assert finding is not None and finding.status == "fail" and "@triton.autotune" in finding.message
    assert static.inspect("import torch\ndef add(x, y, BLOCK=256):\n    return torch.add(x, y)\n", "mine.py",
                          kata.entry, kata.all_banned).message.startswith("mine.py, line 3: uses torch.add")
    assert static.kernel_refusals(__import__("ast").parse("import torch\n@jit\ndef f(x):\n    return torch.exp(x)\n")) == []


@pytest.mark.parametrize("seed", (1, 2, 3))
def test_every_known_mistake_fails_a_named_case(seed):
    kata = catalog.get(KATA)
    missed = [(m.key, m.variant) for m in spec_of(KATA).MISTAKES if first_failing_named_case(kata, m.fn, seed) is None]
    assert not missed, missed


def test_without_triton_the_check_says_how_to_install_it(monkeypatch):
    from checker.judge import kernels

    monkeypatch.setattr(kernels, "availability", lambda: "The Triton katas need Triton: pip install 'kata[kernels]' (Linux).")
    kata = catalog.get(KATA)
    assert kernel_check.unavailable(kata).startswith("The Triton katas need Triton")
    assert static.missing_library(None) is None


def test_the_gpu_compile_starts_once_the_named_cases_pass_and_compiles_each_launch_once(monkeypatch):
    from types import SimpleNamespace

    from checker.judge.results import Status

    compiled: list[list[str]] = []
    monkeypatch.setattr(kernel_check, "_compiled", lambda path, found: compiled.append(
        [f"{l.kernel}:{l.signature['BLOCK']['constexpr']}" for l in found]) or [])
    drawn = cases(KATA)
    named = [i for i, c in enumerate(drawn) if c.family.name != "random"]

    def launched(block: int) -> Outcome:
        return Outcome(None, {kernel_check.GUARD: {"kernels": [{"kernel": "k", "grid": [1, 1, 1], "signature": {
            "x_ptr": "*fp32", "BLOCK": {"constexpr": block}}}]}})

    got = {c.name: launched(c.inputs.args.get("BLOCK", 256)) for c in drawn}
    got["random.5"] = launched(32)  # a fifth signature, after the first four: never compiled
    early = kernel_check.Compile(None, drawn)
    passed = {i: SimpleNamespace(status=Status.PASS) for i in named[:-1]}
    early.feed(passed, got, drawn)
    assert early.thread is None  # a named case still running
    early.feed({**passed, named[-1]: SimpleNamespace(status=Status.PASS)}, got, drawn)
    early.thread.join()
    assert compiled == [["k:64", "k:128", "k:1024", "k:256"]]
    assert early.problems([got[c.name] for c in drawn]) == [] and len(compiled) == 1
    failing = kernel_check.Compile(None, drawn)
    failing.feed({**passed, named[-1]: SimpleNamespace(status=Status.FAIL)}, got, drawn)
    assert failing.thread is None and failing.started == []


LOOP_CARRIED = '''# kata: triton-vector-add
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    acc = tl.zeros((BLOCK,), dtype=tl.float16)
    for _ in range(1):
        acc += tl.load(x_ptr + offsets, mask=mask).to(tl.float32) + tl.load(y_ptr + offsets, mask=mask).to(tl.float32)
    tl.store(out_ptr + offsets, acc, mask=mask)


def add(x, y, BLOCK=256):
    out = torch.empty_like(x)
    add_kernel[(triton.cdiv(x.numel(), BLOCK),)](x, y, out, x.numel(), BLOCK=BLOCK)
    return out
'''


def test_a_kernel_only_a_gpu_rejects_fails_after_every_case_passed(tmp_path):
    """The float16 accumulator a loop turns into float32: the interpreter computes it right, the sm_90 frontend
    (run by the check once its named cases passed, on the other core) refuses it."""
    from tests.conftest import run_check

    path = tmp_path / "triton_vector_add.py"
    path.write_text(LOOP_CARRIED)
    result = run_check(path, KATA, seed=1, name=False, draws=0)
    assert result.status.value == "fail" and all(c.status.value == "pass" for c in result.cases)
    assert "does not compile for a GPU" in result.message and "Loop-carried variable acc" in result.message
    assert result.note == "checked under Triton's interpreter; no GPU pass"
