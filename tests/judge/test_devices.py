"""The CUDA path, exercised on a CPU-only machine: device selection, cross-device comparison, TF32
off, --bench. (Run the whole suite with a GPU to check the real thing: see the README.)"""
from __future__ import annotations

import pytest
import torch

from checker.judge import engine
from checker.judge.codec import TensorValue
from checker.judge.compare import compare_values
from checker.errors import KataError
from tests.conftest import CORPUS, ROOT, run_check


def test_auto_prefers_cuda_then_mps_then_cpu(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert engine.resolve_device("auto").type == "cuda"
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.setattr(torch.backends.mps, "is_available", lambda: True)
    assert engine.resolve_device("auto").type == "mps"
    monkeypatch.setattr(torch.backends.mps, "is_available", lambda: False)
    assert engine.resolve_device("auto").type == "cpu"


def test_asking_for_a_missing_gpu_is_a_usage_error(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    with pytest.raises(KataError, match="no CUDA GPU"):
        engine.resolve_device("cuda")
    with pytest.raises(KataError, match="Unknown device"):
        engine.resolve_device("tpu")


def _value(device: str, data: torch.Tensor | None = None) -> TensorValue:
    data = torch.ones(3) if data is None else data
    return TensorValue(data, "float32", (3,), device)


def test_a_cpu_result_for_cuda_inputs_is_named_as_a_device_bug():
    problems = compare_values("returns", _value("cuda:0"), _value("cpu"), 1e-4, 1e-5)
    assert problems[0].kind == "device"
    assert "is on cpu, expected cuda:0" in problems[0].message and "device=" in problems[0].message


def test_cuda_device_indices_do_not_matter():
    assert compare_values("returns", _value("cuda:0"), _value("cuda:1"), 1e-4, 1e-5) == []


def test_values_that_differ_only_by_summation_order_pass_at_float32_tolerance():
    g = torch.Generator().manual_seed(0)
    x = torch.randn(4096, generator=g)
    forward, backward = x.cumsum(0), x.flip(0).cumsum(0).flip(0)
    total_a = forward[-1:].clone()
    total_b = backward[:1].clone()
    problems = compare_values("sum", TensorValue(total_a, "float32", (1,), "cpu"), TensorValue(total_b, "float32", (1,), "cpu"), 1e-4, 1e-5)
    assert problems == []


def test_the_quick_numpy_verdict_agrees_with_the_full_comparison():
    """compare.py decides most right items in NumPy first; it says "close" exactly where torch's isclose
    (equal_nan, after the finite check) would, for every float dtype, NaN, inf and near-misses."""
    from checker.judge.compare import _compare_data, _float64_pair, _plainly_close

    g = torch.Generator().manual_seed(5)
    seen = {True: 0, False: 0}
    for trial in range(3000):
        dtype = (torch.float16, torch.float32, torch.float64)[trial % 3]
        e = (torch.randn(7, generator=g) * 10 ** torch.randint(-8, 6, (1,), generator=g).item()).to(dtype)
        rtol, atol = (1e-3, 1e-5) if dtype == torch.float16 else (1e-4, 1e-6)
        noise = torch.randn(7, generator=g, dtype=torch.float64) * (atol + rtol * e.double().abs()) * [0.5, 1.0, 1.02, 3][trial % 4]
        got = (e.double() + noise).to(dtype)
        if trial % 7 == 0:
            got[trial % 5] = [float("nan"), float("inf"), -float("inf")][trial % 3]
        if trial % 11 == 0:
            e[trial % 6] = float("nan")
        quick = _plainly_close(*_float64_pair(e, got), rtol, atol)
        seen[quick] += 1
        full = bool(torch.isfinite(e).all() and torch.isfinite(got).all()
                    and torch.isclose(got.double(), e.double(), rtol=rtol, atol=atol, equal_nan=True).all())
        assert quick == full, (e, got)
        if quick:
            assert _compare_data("x", e, got, rtol, atol) == [], (e, got)
    assert seen[True] > 300 and seen[False] > 300, seen  # both verdicts tried often


def test_tf32_is_off_while_checking():
    torch.backends.cuda.matmul.allow_tf32 = True
    engine._fast_math_off()
    assert torch.backends.cuda.matmul.allow_tf32 is False and torch.backends.cudnn.allow_tf32 is False


def test_bench_times_the_learner_against_the_reference(tmp_path):
    from checker.text import catalog
    from checker.judge.bench import bench

    kata = catalog.get("gae")
    target = tmp_path / "gae.py"
    target.write_text("# kata: gae\n" + kata.reference_path.read_text())
    import importlib

    timings = bench(kata, importlib.import_module(kata.spec_module), target, torch.device("cpu"))
    assert timings["yours_ms"] > 0 and timings["reference_ms"] > 0 and "4096" in timings["shape"]


def test_the_meta_case_catches_a_device_bug_on_the_cpu(tmp_path):
    target = tmp_path / "gae.py"
    target.write_text("# kata: gae\nimport torch\n"
                      "def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):\n"
                      "    T = rewards.shape[0]\n    adv = torch.zeros(T, dtype=rewards.dtype)\n    gae = 0.0\n"
                      "    for t in reversed(range(T)):\n"
                      "        nxt = values[t + 1] if t + 1 < T else 0.0\n"
                      "        nd = 1.0 - float(dones[t])\n"
                      "        delta = rewards[t] + gamma * nxt * nd - values[t]\n"
                      "        gae = delta + gamma * lam * nd * gae\n        adv[t] = gae\n"
                      "    returns = adv.to(rewards.dtype) + values\n"
                      "    return (adv - adv.mean()) / (adv.std() + 1e-8), returns\n")
    result = run_check(target, "gae", seed=4)
    failing = {c.name for c in result.failures()}
    assert failing == {"device"}, failing


def test_a_python_scalar_accumulator_is_not_a_device_bug(tmp_path):
    """torch.tensor(0.0) mixes with CUDA tensors, so the meta case must not fail it."""
    target = tmp_path / "gae.py"
    target.write_text("# kata: gae\nimport torch\n"
                      "def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):\n"
                      "    adv = torch.zeros_like(rewards)\n    gae = torch.tensor(0.0)\n    nxt = torch.tensor(0.0)\n"
                      "    for t in reversed(range(len(rewards))):\n"
                      "        nd = 1.0 - dones[t].to(rewards.dtype)\n"
                      "        delta = rewards[t] + gamma * nxt * nd - values[t]\n"
                      "        gae = delta + gamma * lam * nd * gae\n        adv[t] = gae\n        nxt = values[t]\n"
                      "    returns = adv + values\n"
                      "    return (adv - adv.mean()) / (adv.std() + 1e-8), returns\n")
    result = run_check(target, "gae", seed=4)
    assert result.passed, [(c.name, c.problems, c.error) for c in result.failures()][:2]


def _benched() -> list[str]:
    import importlib

    from checker.text import catalog

    return [k.id for k in catalog.KATAS if hasattr(importlib.import_module(k.spec_module), "BENCH")]


def test_every_kata_but_the_instant_masks_has_a_benchmark():
    from checker.text import catalog

    instant = {"causal-mask", "offset-causal-mask", "sliding-window-mask"}  # built in microseconds at any size
    # The Triton kernel katas time nothing: their kernels run under Triton's interpreter, where time says nothing of a
    # GPU (shared/KATAS-kernels.md, decision 13)
    kernels = {k.id for k in catalog.KATAS if k.needs == "triton"}
    assert set(_benched()) == {k.id for k in catalog.KATAS} - instant - kernels


@pytest.mark.parametrize("kata_id", _benched())
def test_every_benchmark_input_runs_the_reference(kata_id):
    """`kata check --bench`'s input, made as bench() makes it, runs the reference once through the spec's call hook
    (and its bench_note hook), in process: that it runs, not how fast. The forks, the seal and the timing around it
    are test_bench_times_the_learner_against_the_reference's; running the large input four times in two children
    per kata to learn that it runs cost ~1 s a kata."""
    import importlib

    from checker.text import catalog
    from checker.judge import spec as spec_api
    from tests.spec_support import reference_of

    kata = catalog.get(kata_id)
    spec = importlib.import_module(kata.spec_module)
    label, make = spec.BENCH
    inputs = make(torch.Generator().manual_seed(0))
    entry = reference_of(kata)
    outcome = getattr(spec, "call", spec_api.call)(kata, entry, inputs, torch.device("cpu"))
    assert label and (outcome.value is not None or outcome.extras)  # an in-place kata answers in its extras
    note = getattr(spec, "bench_note", None)
    if note is not None:
        assert isinstance(note(kata, entry, inputs, torch.device("cpu")), str)


def _simulated(fn, device="meta"):
    from checker.judge.devices import Simulation

    with Simulation(device) as sim:
        value = fn()
    return sim.report(value)


def _device(t) -> str:
    return str(getattr(t, "simulated_device", t.device))


def test_meta_simulation_labels_what_was_asked_for_meta():
    out = _simulated(lambda: torch.ones(3, 3, dtype=torch.bool, device="meta").tril() & torch.ones(3, 3, dtype=torch.bool, device="meta"))
    assert _device(out) == "meta" and out.shape == (3, 3) and out.dtype == torch.bool
    moved = _simulated(lambda: torch.arange(4).to(torch.device("meta")))
    assert _device(moved) == "meta"
    ignored = _simulated(lambda: torch.ones(3, 3, dtype=torch.bool).tril())
    assert _device(ignored) == "cpu"


@pytest.mark.parametrize("fn, says", [
    (lambda: torch.ones(3, device="meta").sum().item(), "cannot be called on meta"),
    (lambda: torch.ones(3, device="meta").cpu(), "Cannot copy out of meta"),
    (lambda: torch.ones(3, device="meta") + torch.ones(3), "not on the expected device meta"),
])
def test_meta_simulation_forbids_what_meta_forbids(fn, says):
    from checker.judge.devices import DeviceProblem

    with pytest.raises(DeviceProblem, match=says):
        _simulated(fn)


def test_a_cpu_scalar_mixes_with_meta_as_it_does_in_torch():
    out = _simulated(lambda: torch.arange(4, device="meta") <= torch.tensor(2))
    assert _device(out) == "meta"


def _rendered(result) -> str:
    import io

    from rich.console import Console

    from checker.app.render import report

    console = Console(width=100, record=True, color_system=None, file=io.StringIO(), highlight=False)
    console.print(report(result))
    return console.export_text()


def test_a_device_bug_is_one_failed_device_problem_in_the_katas_own_terms(tmp_path):
    from checker.judge.results import Status

    target = tmp_path / "offset_causal_mask.py"
    target.write_text("# kata: offset-causal-mask\nimport torch\n"
                      "def create_offset_causal_mask(seq_len, start_pos, device=None):\n"
                      "    q = start_pos + torch.arange(seq_len)[:, None]\n"
                      "    k = torch.arange(start_pos + seq_len, device=device)[None, :]\n"
                      "    return k <= q\n")
    result = run_check(target, "offset-causal-mask", seed=4)
    assert result.status is Status.FAIL, "every panel says FAIL, so the verdict does"
    assert {c.name: c.status for c in result.failures()} == {"meta": Status.FAIL, "device": Status.FAIL}
    device = next(c for c in result.cases if c.name == "device")
    assert device.error is None and [p.kind for p in device.problems] == ["device"]
    said = device.problems[0].message
    assert "`torch.arange(...)` made a tensor on the CPU" in said and "`<=`" in said and "cuda:0" in said
    assert "line 6: `return k <= q`" in said and "pass device=device" in said
    assert "zeros_like(rewards)" not in said and "DeviceBug" not in said and "checker." not in said
    text = _rendered(result)
    assert text.count("`torch.arange(...)` made a tensor") == 1, text  # said once: the device case fails the same way
    assert "above, 1 more case: device." in text


def test_the_learners_own_exception_in_the_device_case_stays_an_error(tmp_path):
    from checker.judge.results import Status

    target = tmp_path / "gae.py"
    source = "# kata: gae\n" + (ROOT / "reference" / "gae.py").read_text()
    target.write_text(source.replace("    T = rewards.shape[0]\n",
                                     "    T = rewards.shape[0]\n    if rewards.is_cuda:\n"
                                     "        raise ValueError('no GPU support yet')\n", 1))
    result = run_check(target, "gae", seed=4)
    [case] = result.failures()
    assert case.name == "device" and case.status is Status.ERROR and result.status is Status.ERROR
    assert case.error.type == "ValueError" and case.error.message == "no GPU support yet"


def test_a_mask_that_ignores_device_is_named_in_the_device_case_too(tmp_path):
    target = tmp_path / "causal_mask.py"
    target.write_text("# kata: causal-mask\n" + (CORPUS / "causal_mask" / "wrong_device_ignored.py").read_text())
    result = run_check(target, "causal-mask", seed=4)
    failing = {c.name: c for c in result.failures()}
    assert set(failing) == {"meta", "device"}
    for case in failing.values():
        assert case.mistake == "device= ignored" and case.problems[0].kind == "device"
    assert "is on cpu, expected cuda:0" in failing["device"].problems[0].message


def test_module_parameters_move_with_the_module_and_their_gradients_are_compared(tmp_path):
    """mha's device case compares the gradients w.r.t. x and every parameter, all on the simulated GPU."""
    import importlib

    from checker.text import catalog
    from checker.judge import spec as spec_api

    kata = catalog.get("mha")
    spec = importlib.import_module(kata.spec_module)
    [case] = spec_api.build_cases(spec, 3, "device")
    module = importlib.util.module_from_spec(importlib.util.spec_from_file_location("ref_mha", kata.reference_path))
    module.__spec__.loader.exec_module(module)
    outcome = spec.call(kata, getattr(module, kata.entry), case.inputs, torch.device("cpu"), track_device=True)
    grads = {k: v for k, v in outcome.extras.items() if k.startswith("grad of")}
    assert "grad of x" in grads and "grad of w_q.weight" in grads and "grad of w_o.bias" in grads
    assert all(str(g.simulated_device) == "cuda:0" for g in grads.values())
    assert all(str(t.simulated_device) == "cuda:0" for t in outcome.value)


@pytest.mark.parametrize("kata_id", [k.id for k in __import__("checker.text.catalog", fromlist=["KATAS"]).KATAS])
def test_every_gradient_a_kata_compares_is_taken_on_the_simulated_gpu_too(kata_id):
    """The device case compares the same gradients as the CPU cases, and they are real tensors: a
    gradient taken after the simulation, against the aliases it reports, came out None for the reference
    and the learner alike (moe-router's did), so a wrong gradient passed there unseen."""
    import importlib

    from checker.text import catalog
    from checker.judge import spec as spec_api
    from tests.spec_support import fresh, reference_of

    kata = catalog.get(kata_id)
    spec = importlib.import_module(kata.spec_module)
    hook = getattr(spec, "call", spec_api.call)
    device_cases = [c for c in spec_api.build_cases(spec, 3) if c.family.track_device or c.inputs.simulate]
    if not device_cases:
        pytest.skip(f"{kata_id} has no device case (its inputs are CPU-only by contract)")
    for case in device_cases:
        outcome = hook(kata, reference_of(kata), fresh(case.inputs), torch.device("cpu"), track_device=True)
        grads = {k: v for k, v in (outcome.extras or {}).items() if k.startswith("grad of")}
        if case.inputs.grad_of or case.inputs.probe is not None:
            assert grads, f"{kata_id}: the device case takes no gradient"
        assert all(g is not None for g in grads.values()), {k: g is None for k, g in grads.items()}
        assert all(str(g.simulated_device) == "cuda:0" for g in grads.values())


def test_the_simulation_loads_no_heavy_part_of_torch():
    """Checking at the level of torch calls, not aten dispatch: a Python __torch_dispatch__ makes torch 2.13
    import torch.distributed.tensor (over 2 s), and a real meta op torch._dynamo (about 1 s), in every child."""
    import subprocess
    import sys

    probe = ("import sys, importlib, torch\n"
             f"sys.path.insert(0, {str(ROOT)!r})\n"
             "from checker.text import catalog\nfrom checker.judge import spec\n"
             "for kid, name in (('mha', 'device'), ('causal-mask', 'meta'), ('gae', 'device')):\n"
             "    kata = catalog.get(kid); module = importlib.import_module(kata.spec_module)\n"
             "    ref = importlib.util.spec_from_file_location('r' + kata.module, kata.reference_path)\n"
             "    m = importlib.util.module_from_spec(ref); ref.loader.exec_module(m)\n"
             "    case = spec.build_cases(module, 1, name)[0]\n"
             "    getattr(module, 'call', spec.call)(kata, getattr(m, kata.entry), case.inputs, torch.device('cpu'))\n"
             "print(sorted(m for m in ('torch._dynamo', 'torch.distributed.tensor') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


def test_a_comparison_is_named_by_the_symbol_on_the_learners_line():
    """For `cpu <= gpu` Python calls the GPU tensor's __ge__ first (its class subclasses Tensor)."""
    from checker.judge.devices import DeviceProblem, Simulation

    with pytest.raises(DeviceProblem) as raised, Simulation("cuda", {"device": "cuda"}):
        q = torch.arange(3)[:, None]
        k = torch.arange(3, device="cuda")[None, :]
        k <= q  # noqa: B015 — the comparison is what is judged
    assert "then `<=` combined it" in raised.value.problem and "`k <= q`" in raised.value.problem
    assert "pass device=device" in raised.value.problem


def test_the_simulation_leaves_torch_as_it_found_it():
    from checker.judge.devices import DeviceProblem, Simulation

    with pytest.raises(DeviceProblem), Simulation("cuda"):
        torch.ones(2, device="cuda") + torch.ones(2)
    assert not torch.__future__.get_swap_module_params_on_conversion()
    assert torch.ones(2).device.type == "cpu" and not torch._C._is_torch_function_mode_enabled()


def test_a_second_check_with_the_same_seed_reuses_the_references_answers(tmp_path, monkeypatch):
    """What makes watch's re-check fast: only the learner's child is forked again."""
    from checker.text import catalog

    target = tmp_path / "gae.py"
    target.write_text("# kata: gae\n" + catalog.get("gae").reference_path.read_text())
    monkeypatch.setattr(engine, "_REFERENCE_CACHE", {})
    forks, here = [], []
    from checker.judge.runner import Children

    real_fork = Children.fork
    named = lambda body: getattr(body, "func", body).__name__  # noqa: E731 — a learner's child is a partial of _learner
    monkeypatch.setattr(Children, "fork", lambda self, body: forks.append(named(body)) or real_fork(self, body))
    real_here = engine._Run._reference_here
    monkeypatch.setattr(engine._Run, "_reference_here", lambda self, only=None: here.append(1) or real_here(self, only))
    first = run_check(target, "gae", seed=77)
    second = run_check(target, "gae", seed=77)
    assert first.passed and second.passed and len(second.cases) == len(first.cases)
    # On the CPU the parent computes the reference's answers (else a reference child does), once.
    assert (forks, here) in ((["_learner", "_learner"], [1]), (["_learner", "_reference", "_learner"], [1])), (forks, here)
    broken = tmp_path / "broken.py"
    broken.write_text(target.read_text().replace("1.0 - dones", "0.0 * dones"))
    assert not run_check(broken, "gae", seed=77).passed  # cached answers still judge a wrong file wrong


def test_a_module_already_on_the_device_is_not_moved_again():
    """spec._call moves the learner's module with .to(device) only when that could change something: a parameter or
    buffer elsewhere, or a module with its own `to` or `_apply` (which may move more than its tensors)."""
    from checker.judge.spec import _elsewhere

    cpu = torch.device("cpu")
    plain = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.LayerNorm(3))
    assert not _elsewhere(plain, cpu)
    assert _elsewhere(plain, torch.device("meta"))
    with_meta_buffer = torch.nn.Linear(2, 2)
    with_meta_buffer.register_buffer("scale", torch.ones(2, device="meta"))
    assert _elsewhere(with_meta_buffer, cpu)
    with_meta_param = torch.nn.Linear(2, 2)
    with_meta_param.bias = torch.nn.Parameter(torch.zeros(2, device="meta"))
    assert _elsewhere(with_meta_param, cpu)

    class OwnTo(torch.nn.Linear):
        def to(self, *args, **kwargs):
            return super().to(*args, **kwargs)

    class OwnApply(torch.nn.Linear):
        def _apply(self, fn, recurse=True):
            return super()._apply(fn, recurse)

    assert _elsewhere(OwnTo(2, 2), cpu)
    assert _elsewhere(torch.nn.Sequential(torch.nn.Linear(2, 2), OwnApply(2, 2)), cpu)
    assert _elsewhere(object(), cpu)  # not a torch module: its .to() is its own business
