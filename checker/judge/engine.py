"""The checker's parent side: static checks, then the learner and the reference side by side.

The parent draws every case's inputs from the seed, then forks a child that runs the learner's
file (isolated, time-limited) and streams outcomes back over a pipe in a safe format. The hidden
reference's answers come, on CPU, from the parent itself while that child runs (on a GPU, from a
second child); the parent, whose torch the learner's code never touched, compares them. Forking
after torch is imported is what makes a check cost one torch import. A re-check that has the
reference's answers already (kata watch) may run the learner's cases in two children, merged into
the report one child would have given (`_Run._merged`).
"""
from __future__ import annotations

import os

os.environ.setdefault("PYTORCH_NVML_BASED_CUDA_CHECK", "1")  # asking about CUDA must not break fork

import contextlib
import functools
import gc
import importlib
import importlib.util
import io
import random
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable

import numpy.random  # noqa: F401 — each child seeds it per case: imported here once, not lazily in every child
import torch

from checker.judge import codec, kernel_check, static
from checker.judge import spec as spec_api
from checker.text.catalog import Kata
from checker.judge.compare import SMALL, compare_outcome
from checker.errors import KataError
from checker.text.i18n import tr
from checker.judge.results import CaseResult, CheckResult, LearnerError, Problem, Status, TensorInfo
from checker.judge.runner import Children, Stream, decode_outcome, exit_words, merge
from checker.judge.worker import (INDEX_BYTES, Limits, describe_error, encode_outcome, isolate, load_entry, queued, refusal,
                            reset_global_state, send, serve, stub_raises, timed)

# A re-check spreads the learner's cases over two children when its last run of them took this long (the sum of
# its cases' times): a second child costs a fork, a load of the learner's file and the first calls' warm-up again.
SPREAD_AFTER_SECONDS = 0.06
_LEARNER_SECONDS: dict[tuple, float] = {}  # a run's cases -> how long the learner's code took on them last time

# The reference's answers for one run's cases never change: a process that checks again and again
# (kata watch) reuses them, so each re-check forks only the learner's child.
_REFERENCE_CACHE: dict[tuple, tuple] = {}


# A run's cases depend only on the spec's families, the seed and --case: a watcher re-checks one seed, so it
# draws them once (greedy-generate finds each case's model from a greedy run of it: 0.14 s a draw).
# Nothing changes a case once drawn: the children get copies, and the reference and the comparison only read it.
_CASES_CACHE: dict[tuple, list[spec_api.Case]] = {}


def _cases(spec: Any, seed: int, only: str | None) -> list[spec_api.Case]:
    key = (spec.__name__, spec.FAMILIES, seed, only)
    if key not in _CASES_CACHE:
        _CASES_CACHE[key] = spec_api.build_cases(spec, seed, only)
        while len(_CASES_CACHE) > 8:
            _CASES_CACHE.pop(next(iter(_CASES_CACHE)))
    return _CASES_CACHE[key]


def _remember(key: tuple, messages: tuple) -> None:
    """Keep the reference's answers for this run's cases, wherever they were computed: a watcher re-checks
    one seed, so a few are kept, not every one."""
    _REFERENCE_CACHE[key] = messages
    while len(_REFERENCE_CACHE) > 8:
        _REFERENCE_CACHE.pop(next(iter(_REFERENCE_CACHE)))


def _answered_under(messages: tuple) -> list[int] | None:
    """The conventions a reference's kept answers were computed under, where not all of them (see `accepted`)."""
    for header, _ in reversed(messages):
        if header.get("m") == "done":
            return header.get("conventions")
    return None


def accepted(kata: Kata, spec: Any, entry: Any, inputs: spec_api.Inputs, device: torch.device,
             reset: Any = None, only: Iterable[int] | None = None) -> list[spec_api.Outcome]:
    """The reference's accepted answers on one case: the spec's `expected` hook (or its `call`) on the reference.
    A spec with CONVENTIONS gets them from each convention's reference in turn (or from those `only` names), each
    answer tagged with its convention's index; `reset()` puts the random state back before each one after the first
    (they draw what the learner's run drew)."""
    hook = getattr(spec, "expected", None)
    call = getattr(spec, "call", spec_api.call)

    def answers(fn: Any) -> list[spec_api.Outcome]:
        return hook(kata, fn, inputs, device) if hook is not None else [call(kata, fn, inputs, device)]

    conventions = getattr(spec, "CONVENTIONS", ())
    if not conventions:
        return answers(entry)
    outcomes = []
    for n, index in enumerate(range(len(conventions)) if only is None else only):
        if n and reset is not None:
            reset()
        convention = conventions[index]
        outcomes += [replace(o, convention=index) for o in answers(entry if convention.fn is None else convention.fn)]
    return outcomes


def resolve_device(name: str = "auto") -> torch.device:
    name = name.lower()
    if name == "auto":
        if torch.cuda.is_available():
            return torch.device("cuda")
        mps = getattr(torch.backends, "mps", None)
        return torch.device("mps" if mps is not None and mps.is_available() else "cpu")
    if name not in ("cpu", "cuda", "mps"):
        raise KataError(tr("Unknown device '{name}': use auto, cpu, cuda or mps.", name=name))
    if name == "cuda" and not torch.cuda.is_available():
        raise KataError(tr("--device cuda was asked for, but no CUDA GPU is available here."))
    if name == "mps" and not (getattr(torch.backends, "mps", None) and torch.backends.mps.is_available()):
        raise KataError(tr("--device mps was asked for, but MPS is not available here."))
    return torch.device(name)


@dataclass
class Request:
    kata: Kata
    path: Path
    device: str = "auto"
    seed: int | None = None
    case: str | None = None
    limits: Limits = field(default_factory=Limits)
    bench: bool = False
    inspected: bool = False  # the caller judged the file's text already (checking.prejudge): not parsed again
    # A re-check in a process that keeps the reference's answers (kata watch): the learner's cases may then run in
    # two children, one per core, as one child would have run them (`_Run._merged`).
    spread: bool = False


def check(request: Request) -> CheckResult:
    """Check the learner's file against the kata; always returns a result for the learner's faults."""
    # The parent only draws cases and compares small tensors. With OpenMP's default of one thread per core,
    # each small op wakes a team of threads that compete with the two children for the cores: on a loaded
    # 2-core machine a bool tril of a few elements took 30 ms instead of 3 µs (kata watch does the same).
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check(request)
    finally:
        torch.set_num_threads(threads)


def warm_up(kata: Kata, device: str = "auto", cases: int = 200) -> None:
    """Make this process a warm checker for `kata` (kata watch; any process that checks one kata again and again).

    The device name is checked first (a usage error before anything is drawn). Then the reference (and the known
    mistakes) run over one seed's cases in this process, once: torch loads much of itself on first use (lazily
    imported modules, decompositions, kernel registrations), and a forked child pays that again on every check
    unless the parent already has. Only the kata's own trusted code runs; its outputs are thrown away, and
    sys.path, sys.modules and torch's random state are left as they were. Always on the CPU: CUDA initialised in
    the parent could not be used by the forked children. Last, what is alive now is frozen out of the garbage
    collector, so the children neither walk it nor copy its pages on write (the gc docs' advice before fork).
    """
    # The parent only draws cases and compares small tensors: one intra-op thread keeps OpenMP's spinning workers
    # from competing with the learner's and the reference's children for the cores.
    torch.set_num_threads(1)
    resolve_device(device)
    if kernel_check.is_kernel(kata):
        missing = kernel_check.unavailable(kata)
        if missing is not None:
            raise KataError(missing)
        kernel_check.enter()  # each re-check's children start with triton imported
    spec = importlib.import_module(kata.spec_module)
    module_spec = importlib.util.spec_from_file_location(f"kata_warm_{kata.module}", kata.reference_path)
    module = importlib.util.module_from_spec(module_spec)
    saved_path = list(sys.path)
    try:
        module_spec.loader.exec_module(module)
    finally:
        sys.path[:] = saved_path
    entry = getattr(module, kata.entry)
    expected = getattr(spec, "expected", None)
    call = getattr(spec, "call", spec_api.call)
    variants = [m.fn for m in getattr(spec, "MISTAKES", ())]
    with torch.random.fork_rng(devices=[]):
        for i, case in enumerate(spec_api.build_cases(spec, 1)[:cases]):
            on = torch.device("cpu")
            runs = [lambda: call(kata, entry, case.inputs, on, track_device=case.family.track_device)]
            runs += [lambda: expected(kata, entry, case.inputs, on)] if expected else []
            runs += [lambda fn=fn: call(kata, fn, case.inputs, on) for fn in variants] if i < 8 else []
            for run in runs:
                try:
                    run()
                except Exception:  # noqa: BLE001 — a variant may raise on a case; warming is best effort
                    pass
    gc.collect()
    gc.freeze()


def _check(request: Request) -> CheckResult:
    started = time.perf_counter()
    kata, path = request.kata, request.path
    seed = request.seed if request.seed is not None else random.SystemRandom().randrange(1, 100_000)
    base = CheckResult(kata=kata.id, title=kata.title, file=str(path), device=request.device, seed=seed, status=Status.ERROR)
    kernel = kernel_check.is_kernel(kata)
    if kernel:  # a Triton kernel kata: triton installed, in range (its metadata: no import)
        missing = kernel_check.unavailable(kata)
        if missing is not None:
            raise KataError(missing)
    finding = None
    if not request.inspected:
        text, finding = static.read_source(path, kata.id)
        if finding is None:
            finding = static.inspect(text, path.name, kata.entry, kata.all_banned)
    if finding is not None:
        status = Status.FAIL if finding.status == "fail" else Status.ERROR
        return replace(base, status=status, message=finding.message, hint=finding.hint, seconds=time.perf_counter() - started)
    spec = importlib.import_module(kata.spec_module)
    device = resolve_device(request.device)
    if kernel:
        device = kernel_check.device(request.device, device)  # the interpreter pass runs on the CPU
        kernel_check.enter()  # triton, interpreted, imported once here: every child forked starts with it
    cases = _cases(spec, seed, request.case)
    run = _Run(kata, spec, cases, device, path, request.limits, spread=request.spread)
    try:
        result = run.execute()
        if kernel:
            result = kernel_check.finish(result, path, [run.got.get(case.name) for case in cases], run.compiling)
    finally:
        run.cleanup()
    result = replace(result, kata=kata.id, title=kata.title, file=str(path), device=str(device), seed=seed,
                     seconds=time.perf_counter() - started)
    if request.bench and result.passed:
        from checker.judge.bench import bench

        result = replace(result, bench=bench(kata, spec, path, device))
    return result


class _Run:
    def __init__(self, kata: Kata, spec: Any, cases: list[spec_api.Case], device: torch.device, path: Path, limits: Limits,
                 spread: bool = False):
        self.kata, self.spec, self.cases, self.device, self.path, self.limits = kata, spec, cases, device, path, limits
        self.spread = spread
        self.stub = stub_raises(kata.stub_path)  # what the stub raises, read here: kata's files are sealed in the child
        self.children = Children(limits)
        self._captures = [self.children.capture]  # each learner's child's printing, in that child's order
        self.timed_out = False
        self._ended = 0.0  # when collecting ended (the time limit, on a timeout)
        self.got: dict[str, spec_api.Outcome] = {}  # the learner's decoded outcome per case name
        self.expected: dict[str, list[spec_api.Outcome]] = {}  # the accepted answers per case name
        self._learners: list[Stream] = []  # the learner's children while collecting (two when the cases are spread)
        self._reference_stream: Stream | None = None
        self._stopped: set[int] = set()  # a spread learner's children that were stopped, another having ended the run
        self._draining: Stream | None = None  # the learner's, read between the cases the reference runs here
        self._judged: dict[int, CaseResult] = {}
        self._abouts: dict[str, str] = {}
        # A spec with CONVENTIONS: each judged case's accepted answers and problems under each convention, until
        # `_settle` picks the convention the verdict is given under (`convention`: its index).
        # (case, each convention's answers, the learner's outcome, each convention's problems or None: not compared)
        self._by_convention: dict[str, tuple] = {}
        self._lead: int | None = None  # the convention every case so far matches, compared first
        self._answered: list[int] = []  # the conventions the reference's answers are under (all, or the first only)
        self.convention: int | None = None
        self.followed: tuple[int, ...] = ()  # the conventions the file may follow, for the namer: the chosen one
        #                                      when it matches more cases than any other, else all (chosen first)
        self._convention_said = ""
        # A Triton kernel kata: its GPU frontend compile, started once the named cases have passed (kernel_check)
        self.compiling = kernel_check.Compile(path, cases) if kernel_check.is_kernel(kata) else None

    # ---------------------------------------------------------------- children

    def _learner(self, fd: int, part: int = 0, queue: int | None = None) -> None:
        # The child keeps only the spec's call hook: the spec itself (its known mistakes are solutions with
        # the switches off) and the reference's cached answers are sealed away before the learner's file runs.
        hook, kata, run_device = getattr(self.spec, "call", spec_api.call), self.kata, self.device
        stub = self.stub
        self.spec = None
        _REFERENCE_CACHE.clear()
        kernel = kernel_check.is_kernel(kata)
        if kernel:
            kernel_check.enter()  # before the seal and the learner's `import triton` (a no-op: the parent did it)
        isolate(self._captures[part].fileno(), self.limits, self.device, fd, keep=(hook,), queue_fd=queue)
        if kernel:
            kernel_check.announce_launches(functools.partial(send, fd))  # a timeout then says what was launched
        _fast_math_off()
        error = None
        try:
            entry = load_entry(self.path, kata.entry, f"kata_learner_{kata.module}")
        except BaseException as exc:  # noqa: BLE001 — an import-time failure is the learner's
            error = describe_error(exc, self.path)
        error = refusal(error)
        if error is not None:
            send(fd, {"m": "fatal", "stage": "import", "error": error})
            return

        if kata.kind == "function":
            entry = timed(entry, fd)  # a timeout inside a large call then says how large, and how slow a row was

        def run_case(case: spec_api.Case) -> list[spec_api.Outcome]:
            device = torch.device("cpu") if case.device_independent else run_device
            return [hook(kata, entry, case.inputs, device, track_device=case.family.track_device)]

        serve(fd, run_case, self.cases, self.path, send_args=True, indices=None if queue is None else queued(queue),
              stub=stub)

    def _reference(self, fd: int) -> None:
        _fast_math_off()
        entry = load_entry(self.kata.reference_path, self.kata.entry, f"kata_reference_{self.kata.module}")
        position = {id(case): i for i, case in enumerate(self.cases)}

        def run_case(case: spec_api.Case) -> list[spec_api.Outcome]:
            device = torch.device("cpu") if case.device_independent else self.device
            i = position[id(case)]
            return accepted(self.kata, self.spec, entry, case.inputs, device, lambda: reset_global_state(case.seed ^ i))

        serve(fd, run_case, self.cases)

    def _reference_here(self, only: Iterable[int] | None = None) -> tuple | None:
        """The reference's answers, computed here while the learner's child runs (it was forked first, so it
        never sees them); the messages its child would send, or None to fork that child after all. `only`: the
        conventions to answer under (a spec with CONVENTIONS; default all), named in the "done" message.

        The reference is kata's own code, and this process already has torch: a second child cost a fork,
        and encoding and decoding every answer (kv-cache: a quarter of a check's CPU). On CPU only: a parent
        that used CUDA could not fork working children again. Nothing of it is left behind for a child forked
        later (kata watch's next check): its module leaves sys.modules and is emptied and collected, and
        sys.path, the random generators, the default dtype, grad mode and the TF32 switches are put back.
        """
        if self.device.type != "cpu":
            return None
        name = f"kata_reference_{self.kata.module}"
        saved = (list(sys.path), torch.get_rng_state(), numpy.random.get_state(), torch.get_default_dtype(),
                 torch.is_grad_enabled(), torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32)
        only = None if only is None else tuple(only)
        messages: list[tuple[dict, list[bytes]]] = [({"m": "ready"}, [])]
        try:
            with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                warnings.simplefilter("ignore")
                _fast_math_off()
                entry = load_entry(self.kata.reference_path, self.kata.entry, name)
                for i, case in enumerate(self.cases):
                    reset_global_state(case.seed ^ i)
                    device = torch.device("cpu") if case.device_independent else self.device
                    outcomes = accepted(self.kata, self.spec, entry, case.inputs, device,
                                        lambda: reset_global_state(case.seed ^ i), only)
                    buffers: list[bytes] = []
                    header = {"m": "case", "i": i, "t": 0.0, "outcomes": [encode_outcome(o, buffers) for o in outcomes]}
                    messages.append((header, [bytes(b) for b in buffers]))
                    del outcomes
                    if self._draining is not None:
                        self.children.drain(self._draining)  # or the learner's child waits on a full pipe
            messages.append(({"m": "done"} if only is None else {"m": "done", "conventions": list(only)}, []))
        except Exception:  # noqa: BLE001 — the reference's child then runs it, and reports what failed
            return None
        finally:
            entry = None
            module = sys.modules.pop(name, None)
            if module is not None:
                vars(module).clear()  # its functions and classes hold it in cycles: break them, then collect
            del module
            gc.collect()
            sys.path[:] = saved[0]
            torch.set_rng_state(saved[1])
            numpy.random.set_state(saved[2])
            torch.set_default_dtype(saved[3])
            torch.set_grad_enabled(saved[4])
            torch.set_default_device(None)
            torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32 = saved[5], saved[6]
        return tuple(messages)

    # ---------------------------------------------------------------- collecting

    def execute(self) -> CheckResult:
        gc.freeze()  # the children then share the parent's objects instead of copying pages the GC touches
        key = (self.kata.id, str(self.device), tuple((c.name, c.seed) for c in self.cases))
        queue = self._queue() if self._spreads(key) else None
        parts = 1 if queue is None else 2
        for _ in range(1, parts):
            self._captures.append(tempfile.TemporaryFile())
        # The learners are forked before the cached answers are in a local of this frame.
        learners = [self.children.fork(functools.partial(self._learner, part=p, queue=queue)) for p in range(parts)]
        if queue is not None:
            os.close(queue)
        cached = _REFERENCE_CACHE.get(key)
        if cached is None:
            self._draining = learners[0]
            cached = self._reference_here(only=(0,) if getattr(self.spec, "CONVENTIONS", ()) else None)
            self._draining = None
            if cached:
                _remember(key, cached)
        reference = Stream(-1, -1, messages=list(cached)) if cached else self.children.fork(self._reference)
        self._learners, self._reference_stream = learners, reference
        deadline = time.monotonic() + self.limits.seconds
        self._collect(learners if cached else learners + [reference], deadline)
        if cached and _answered_under(cached) is not None and not self._passed_lead(learners):
            reference = self._rejudged(key, cached, learners)
        self._learners, self._reference_stream = [], None
        if not cached and reference.has("done"):
            _remember(key, tuple(reference.messages))
        learner = learners[0] if parts == 1 else self._merged(learners)
        if learner.has("done"):
            _LEARNER_SECONDS[key] = sum(h.get("t", 0.0) for h, _ in learner.by_case().values())
            while len(_LEARNER_SECONDS) > 8:
                _LEARNER_SECONDS.pop(next(iter(_LEARNER_SECONDS)))
        return self._judge(learner, reference)

    def _passed_lead(self, learners: list[Stream]) -> bool:
        """Whether the learner's answers all came back and every case passed under the first convention: a spec
        with CONVENTIONS has the reference answer under that one first, and a file that follows it never needs the
        others' (gpt2-block's reference ran twice a case: a third of a right file's cold check)."""
        self._judge_ready()
        return (all(s.has("done") for s in learners) and len(self._judged) == len(self.cases)
                and all(r.status is Status.PASS for r in self._judged.values()))

    def _rejudged(self, key: tuple, cached: tuple, learners: list[Stream]) -> Stream:
        """The reference's answers under every convention (those under the first, kept, and the others computed
        now), kept for the next check, and every case judged again against them."""
        done = set(_answered_under(cached) or ())
        rest = self._reference_here(only=[i for i in range(len(self.spec.CONVENTIONS)) if i not in done])
        if rest is None:
            raise RuntimeError(f"kata's reference for {self.kata.id} failed under one of its conventions")
        more = {h["i"]: (h, b) for h, b in rest if h.get("m") == "case"}
        merged = []
        for header, buffers in cached:
            if header.get("m") == "case":
                extra_header, extra_buffers = more[header["i"]]
                shift = len(buffers)
                extra = [{**o, "value": codec.shifted(o["value"], shift),
                          "extras": {k: codec.shifted(v, shift) for k, v in o["extras"].items()}}
                         for o in extra_header["outcomes"]]
                header, buffers = {**header, "outcomes": [*header["outcomes"], *extra]}, [*buffers, *extra_buffers]
            elif header.get("m") == "done":
                header = {"m": "done"}
            merged.append((header, buffers))
        full = tuple(merged)
        _remember(key, full)
        reference = Stream(-1, -1, messages=list(full))
        self._reference_stream = reference
        self._judged, self._by_convention, self._lead, self._answered = {}, {}, None, []
        self.expected, self.got = {}, {}
        self._judge_ready()
        return reference

    def _spreads(self, key: tuple) -> bool:
        """Whether to run the learner's cases in two children: only when nothing else needs the other core (the
        reference's answers are kept from an earlier check), on CPU (a GPU would get two contexts), and when the
        learner's code took long enough on them last time for a second child to pay."""
        return (self.spread and key in _REFERENCE_CACHE and self.device.type == "cpu" and len(self.cases) > 1
                and _LEARNER_SECONDS.get(key, 0.0) >= SPREAD_AFTER_SECONDS and _cores() >= 2)

    def _queue(self) -> int | None:
        """A pipe holding every case's number, for the children to take from: the read end (None if it cannot hold
        them all, and the cases run in one child)."""
        read, write = os.pipe()
        numbers = b"".join(i.to_bytes(INDEX_BYTES, "little") for i in range(len(self.cases)))
        try:
            os.set_blocking(write, False)
            held = os.write(write, numbers) == len(numbers)
        except OSError:  # more cases than the pipe holds (a pipe can be one page)
            held = False
        finally:
            os.close(write)
        if not held:
            os.close(read)
            return None
        return read

    def _merged(self, streams: list[Stream]) -> Stream:
        """The spread learner's children as one (runner.merge); what was judged of cases one child would never have
        run is dropped with them."""
        merged, output = merge(streams, self._captures, len(self.cases), self._stopped)
        for capture in self._captures:
            capture.close()
        self._captures = [output]
        self.children.capture = output
        done = merged.by_case()
        self._judged = {i: r for i, r in self._judged.items() if i in done}
        names = {self.cases[i].name for i in done}
        self.got = {n: o for n, o in self.got.items() if n in names}
        self.expected = {n: o for n, o in self.expected.items() if n in names}
        return merged

    def _judge_ready(self) -> None:
        """Judge each case as soon as both sides have answered, while the children keep working."""
        expected = self._reference_stream.by_case()
        for learner in self._learners:
            if learner.garbled:
                continue
            got = learner.by_case()
            for i in sorted(got.keys() & expected.keys() - self._judged.keys()):
                try:
                    self._judged[i] = self._case_result(self.cases[i], i, expected[i], learner)
                except (ValueError, KeyError, TypeError, IndexError):  # a message no honest child sends
                    learner.garbled = True
                    break

    def _collect(self, streams: list[Stream], deadline: float) -> None:
        self.children.collect(streams, deadline, self._on_message)
        self.timed_out = self.children.timed_out
        self._ended = time.monotonic()

    def _on_message(self, stream: Stream) -> None:
        if self._reference_stream is None:
            return
        if any(stream is s for s in self._learners) or stream is self._reference_stream:
            self._judge_ready()
            if self.compiling is not None:
                self.compiling.feed(self._judged, self.got, self.cases)
        if len(self._learners) > 1 and not self._stopped and (ender := self._ender()) is not None:
            self._stopped = {id(s) for s in self._learners if s is not ender and s.status is None}
            self.children.kill_groups()  # what the others would still run, one child would never have run

    def _ender(self) -> Stream | None:
        """The spread learner's child that has ended the run (it did not load, the stub, out of memory, a crash in a
        case), once every case before that point has its answer: what the others still run would be dropped."""
        answered = {i for s in self._learners for i in s.by_case()}
        for stream in self._learners:
            if stream.has("done"):
                continue
            if stream.has("fatal") or (stream.status is not None and not stream.has("ready")):
                return stream
            if stream.has("stub") or stream.has("stopped"):
                cut = max(stream.by_case()) + 1  # the case it stopped in is answered
            elif stream.status is not None and stream.current is not None:  # it ended in the middle of a case
                cut = stream.current
            else:
                continue
            if all(i in answered for i in range(cut)):
                return stream
        return None

    def cleanup(self) -> None:
        for capture in self._captures[1:]:
            capture.close()
        self.children.cleanup()

    # ---------------------------------------------------------------- judging

    def _judge(self, learner: Stream, reference: Stream) -> CheckResult:
        self.children.kill_groups()
        base = CheckResult(kata=self.kata.id, title=self.kata.title, file=str(self.path), device=str(self.device),
                           seed=0, status=Status.ERROR, output=self.children.output())
        expected = reference.by_case()
        if len(expected) < len(self.cases):
            fatal = reference.has("fatal")
            detail = fatal[0]["error"]["message"] if fatal else f"it stopped after {len(expected)} cases"
            raise RuntimeError(f"kata's reference for {self.kata.id} failed: {detail}")
        fatal = learner.has("fatal")
        if fatal:
            error = fatal[0]["error"]
            return replace(base, message=tr("{file} failed while loading: {type}: {message}", file=self.path.name,
                                            type=error["type"], message=error["message"]),
                           cases=(), hint=error.get("traceback", ""))
        if not learner.has("ready") and not learner.garbled:
            if self.timed_out:
                message = tr("Timed out after {seconds} s while loading {file}: code at import time (a sleep, input(), a "
                             "loop outside your function?) never finished.", seconds=f"{self.limits.seconds:g}",
                             file=self.path.name)
            else:
                message = tr("{file} ended the process while loading: {how}.", file=self.path.name,
                             how=exit_words(learner.status))
            return replace(base, message=message)
        if learner.garbled:
            return replace(base, message=tr("kata could not read back what your code produced (something wrote over "
                                            "the checker's channel); nothing was judged."))
        results = [self._judged.get(i) or self._case_result(case, i, expected[i], learner) for i, case in enumerate(self.cases)
                   if i in learner.by_case() or i == learner.current or i == self._stopped_at(learner)]
        results = self._name_mistakes(self._settle(results))
        base = replace(base, convention=self._convention_said, **self._printed(results, learner))
        if learner.has("stub"):
            return replace(base, message=tr("{entry} is not implemented yet: it still raises NotImplementedError. Write "
                                            "it in {file}, then check again.", entry=self.kata.entry, file=self.path.name),
                           hint=tr("Stuck? `kata hint {id}` gives a nudge.", id=self.kata.id))
        ran_all = len(learner.by_case()) == len(self.cases)
        status = Status.PASS if ran_all and all(r.status is Status.PASS for r in results) else (
            Status.ERROR if any(r.status is Status.ERROR for r in results) else Status.FAIL)
        message = "" if ran_all else self._stop_message(learner)
        return replace(base, status=status, message=message, cases=tuple(results), planned=len(self.cases))

    def _stopped_at(self, learner: Stream) -> int | None:
        """The case the learner's process was in when it stopped without finishing."""
        if learner.has("done") or learner.has("stub") or learner.has("stopped"):
            return None
        if learner.current is not None:
            return learner.current
        done = learner.by_case()
        return max(done) + 1 if done and max(done) + 1 < len(self.cases) else (0 if not done else None)

    def _printed(self, results: list[CaseResult], learner: Stream) -> dict:
        """The learner's printing to show: the first failing case's own, when the offsets say which it was."""
        starts = learner.printed_at
        index = {case.name: i for i, case in enumerate(self.cases)}
        for result in results:
            i = index.get(result.name)
            if result.status is Status.PASS or i is None or i not in starts:
                continue
            later = [at for j, at in starts.items() if j > i]
            text = self.children.printed_between(starts[i], min(later) if later else None)
            if text.strip():
                return {"output": text, "printed_in": result.name}
        return {}

    def _stop_message(self, learner: Stream) -> str:
        stopped = learner.has("stopped")
        if stopped:
            return tr("Stopped at case {case}: {why}; later cases did not run.", case=self.cases[stopped[0]["i"]].name,
                      why=stopped[0]["why"])
        at = self._stopped_at(learner)
        name = self.cases[at].name if at is not None else "?"
        if self.timed_out:
            return self._timeout_message(learner, name)
        return tr("Your code ended the process in case {case}: {how}.", case=name, how=exit_words(learner.status))

    def _timeout_message(self, learner: Stream, case: str) -> str:
        """The timeout, and what made the code slow where the calls say: the rows of the large call it was in and
        the time a row took (from that call, or the large calls before it), or an endless loop's plain words."""
        seconds = f"{self.limits.seconds:g}"
        if kernel_check.is_kernel(self.kata):
            said = kernel_check.timeout_message(learner.messages, seconds, case)
            if said is not None:
                return said
        done = [c for h, _ in learner.by_case().values() for c in h.get("calls", ())]
        rows, took = sum(c["shape"][0] for c in done), sum(c["t"] for c in done)
        if learner.calling is not None:
            header, began = learner.calling
            shape, ran = header["shape"], max(self._ended - began, 0.0)
            what = f"{header['name']} [{', '.join(map(str, shape))}]".strip()
            if rows and took >= ROW_LOOP * rows and ran <= 3 * shape[0] * took / rows + 1.0:  # as slow as before
                return tr("Timed out after {seconds} s in case {case}: your function was called with {rows} rows ({what}) "
                          "and had not returned after {ran} s; its large calls before it took {ms} ms a row ({done} rows "
                          "in {took} s). A Python loop over the rows? Work on the whole batch at once (`kata check "
                          "--timeout` gives it longer).", seconds=seconds, case=case, rows=f"{shape[0]:,}", what=what,
                          ran=f"{ran:.1f}", ms=_ms(took / rows), done=f"{rows:,}", took=f"{took:.1f}")
            if not rows:
                return tr("Timed out after {seconds} s in case {case}: your function was called with {rows} rows ({what}) "
                          "and had not returned after {ran} s (at least {ms} ms a row): an endless loop, or a Python loop "
                          "over the rows? Work on the whole batch at once (`kata check --timeout` gives it longer).",
                          seconds=seconds, case=case, rows=f"{shape[0]:,}", what=what, ran=f"{ran:.1f}",
                          ms=_ms(ran / shape[0]))
        if learner.calling is None and rows and took > 0.5 * self.limits.seconds and took >= ROW_LOOP * rows:
            most = max(c["shape"][0] for c in done)
            return tr("Timed out after {seconds} s in case {case}: your function was called with up to {most} rows and "
                      "took {ms} ms a row ({rows} rows in {took} s). A Python loop over the rows? Work on the whole batch "
                      "at once (`kata check --timeout` gives it longer).", seconds=seconds, case=case, most=f"{most:,}",
                      ms=_ms(took / rows), rows=f"{rows:,}", took=f"{took:.1f}")
        return tr("Timed out after {seconds} s in case {case}: an endless loop, or very slow code?", seconds=seconds,
                  case=case)

    def _case_result(self, case: spec_api.Case, i: int, expected: tuple[dict, list[bytes]], learner: Stream) -> CaseResult:
        info = CaseResult(name=case.name, family=case.family.name, about=self._about(case.family.name), status=Status.ERROR)
        result = self._case_outcome(case, i, expected, learner, info)
        if result.status is Status.PASS:
            return result  # inputs and the reproduce line are for failures: skip building them
        return replace(result, inputs=_inputs_info(case), reproduce=self._reproduce(case))

    def _about(self, family: str) -> str:
        """What a family of cases tests, in the learner's language (looked up once per family: ~100 cases a check)."""
        if family not in self._abouts:
            self._abouts[family] = self.kata.text().family(family)
        return self._abouts[family]

    def _case_outcome(self, case: spec_api.Case, i: int, expected: tuple[dict, list[bytes]], learner: Stream,
                      info: CaseResult) -> CaseResult:
        got = learner.by_case().get(i)
        if got is None:
            return replace(info, error=LearnerError("Stopped", self._stop_message(learner)))
        header, buffers = got
        if "problems" in header:  # the child judged the case itself: a rule a real device enforces (checker/judge/devices.py)
            found = tuple(Problem(p["kind"], p["item"], p["message"]) for p in header["problems"])
            return replace(info, status=Status.FAIL, problems=found, seconds=header.get("t", 0.0))
        if "error" in header:
            e = header["error"]
            return replace(info, error=LearnerError(e["type"], e["message"], e.get("traceback", "")), seconds=header.get("t", 0.0))
        exp_header, exp_buffers = expected
        if "error" in exp_header:
            raise RuntimeError(f"kata's reference raised on case {case.name}: {exp_header['error']['message']}")
        alternatives = [decode_outcome(o, exp_buffers) for o in exp_header["outcomes"]]
        self.expected[case.name] = alternatives
        outcome = decode_outcome(header["outcomes"][0], buffers)
        self.got[case.name] = outcome
        problems = self._compare_all(case, alternatives, outcome)
        problems += _inplace_problems(case, header.get("after", {}), buffers, header.get("relaid"))
        status = Status.PASS if not problems else Status.FAIL
        return replace(info, status=status, problems=tuple(problems), seconds=header.get("t", 0.0))

    def _compare(self, case: spec_api.Case, alternatives: list[spec_api.Outcome], got: spec_api.Outcome) -> list[Problem]:
        hook = getattr(self.spec, "compare", None)
        if hook is not None:
            custom = hook(self.kata, case, alternatives, got)
            if custom is not None:
                return custom
        best: list[Problem] | None = None
        for alternative in alternatives:
            problems = compare_outcome(self.kata, self.spec, case, alternative, got)
            if not problems:
                return []
            if best is None or _weight(problems) < _weight(best):
                best = problems
        return best or []

    # ---------------------------------------------------------------- several right conventions

    def _compare_all(self, case: spec_api.Case, alternatives: list[spec_api.Outcome], got: spec_api.Outcome
                     ) -> list[Problem]:
        """The comparison of one case. A spec with CONVENTIONS: against the convention every case so far matches
        (the lead) first, and only when that one fails against the others (a right file is compared once a case,
        not once per convention: gpt2-block's re-check spent half its time failing the other GELU form). What is
        found is kept for `_settle`, which compares the rest only where the verdict needs it. Returns no problems
        where the lead matches, else the first convention's problems meanwhile."""
        count = len(getattr(self.spec, "CONVENTIONS", ()))
        if not count:
            return self._compare(case, alternatives, got)
        groups = [[a for a in alternatives if a.convention == index] for index in range(count)]
        found: list[list[Problem] | None] = [None] * count
        self._by_convention[case.name] = (case, groups, got, found)
        self._answered = [i for i in range(count) if groups[i]]  # the reference may have answered under the first only
        order = [i for i in (self._lead, *self._answered) if i is not None]
        for index in dict.fromkeys(order):
            if not self._found(case.name, index) and (index == self._lead or self._matches_all(index)):
                self._lead = index
                return []
        return found[self._answered[0]]

    def _found(self, name: str, index: int) -> list[Problem]:
        """The problems of one case under one convention, compared the first time they are asked for."""
        case, groups, got, found = self._by_convention[name]
        if found[index] is None:
            found[index] = self._compare(case, groups[index], got)
        return found[index]

    def _matches_all(self, index: int, names: Iterable[str] | None = None) -> bool:
        """Whether every case compared so far (or each of `names`) matches the convention, comparing until the first
        that does not."""
        return all(not self._found(name, index) for name in (self._by_convention if names is None else names))

    def _settle(self, results: list[CaseResult]) -> list[CaseResult]:
        """Several right conventions, one verdict: the convention the file matches on most cases (then the one it
        misses by least, then the first declared) is the one every case is judged under, so a file passes only when
        one convention reproduces every case. The namer then holds the known mistakes to that convention's answers.
        Without CONVENTIONS the results are as they were.

        A convention that matches every case is chosen without comparing the others past the first case each one
        misses (the lowest-declared of several that match all); otherwise every case is compared under each."""
        conventions = getattr(self.spec, "CONVENTIONS", ())
        if not conventions or not self._by_convention:
            return results
        kept = [r for r in results if r.name in self._by_convention]
        inplace = {r.name: tuple(p for p in r.problems if p.kind == "inplace") for r in kept}
        names = [r.name for r in kept]
        answered = self._answered  # every convention, unless the file passed under the first (execute)
        clean = [] if any(inplace.values()) else [i for i in answered if self._matches_all(i, names)]
        if clean:
            chosen = clean[0]
            ahead = len(clean) == 1
        else:
            def standing(index: int) -> tuple[int, int, int]:
                found = [self._found(r.name, index) for r in kept]
                passed = sum(not problems and not inplace[r.name] for problems, r in zip(found, kept))
                weights = [_weight(problems) for problems in found]
                return passed, -sum(w[0] for w in weights), -sum(w[1] for w in weights)

            standings = {index: standing(index) for index in answered}
            chosen = max(answered, key=lambda index: (standings[index], -index))
            ahead = all(standings[chosen][0] > s[0] for i, s in standings.items() if i != chosen)
        self.convention = chosen
        self.followed = (chosen,) if ahead else (chosen, *(i for i in answered if i != chosen))
        cases = {c.name: c for c in self.cases}
        settled = []
        for result in results:
            if result.name not in self._by_convention:
                settled.append(result)
                continue
            groups = self._by_convention[result.name][1]
            self.expected[result.name] = groups[chosen]
            problems = tuple(self._found(result.name, chosen)) + inplace[result.name]
            result = replace(result, problems=problems, status=Status.FAIL if problems else Status.PASS)
            if problems and not result.reproduce and result.name in cases:
                result = replace(result, inputs=_inputs_info(cases[result.name]),
                                 reproduce=self._reproduce(cases[result.name]))
            settled.append(result)
        name = self.kata.text().conventions.get(conventions[chosen].key, conventions[chosen].key)
        failing = [r for r in settled if r.status is not Status.PASS]
        if not failing and len(settled) == len(self.cases):
            self._convention_said = tr("Matches the convention: {name}.", name=name)
        elif failing:
            self._convention_said = tr("Closest convention: {name}; {n} of {total} cases match it, the first it leaves "
                                       "is {case}.", name=name, n=len(settled) - len(failing),
                                       total=len(settled), case=failing[0].name)
        return settled

    def _reproduce(self, case: spec_api.Case) -> str:
        device = "" if self.device.type == "cpu" else f" --device {self.device.type}"
        here = self.path.parent.resolve() == Path.cwd().resolve()
        target = self.kata.id if here and self.path.name == self.kata.filename else (self.path.name if here else str(self.path))
        return f"kata check {target} --seed {case.seed} --case {case.name}{device}"

    def _name_mistakes(self, results: list[CaseResult]) -> list[CaseResult]:
        from checker.judge.mistakes import name_mistakes

        return name_mistakes(self, results)


# Seconds a row above which a large call is a loop over its rows: one torch op costs some microseconds, while a
# batched computation spends a fraction of one on each row.
ROW_LOOP = 5e-6


def _ms(seconds: float) -> str:
    """A time per row in milliseconds, to two figures: "3.1", "0.42", "27"."""
    ms = seconds * 1000
    return f"{ms:.0f}" if ms >= 10 else f"{ms:.2g}"


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _fast_math_off() -> None:
    """Compare exact arithmetic, not TF32 shortcuts: TF32 matmuls would miss the tolerances."""
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False


def _weight(problems: list[Problem]) -> tuple[int, int]:
    structural = sum(p.kind != "values" for p in problems)
    mismatched = sum(p.mismatch.mismatched for p in problems if p.mismatch is not None)
    return structural, mismatched


def _inplace_problems(case: spec_api.Case, after: dict, buffers: list[bytes], relaid: dict | None = None
                      ) -> list[Problem]:
    """The inputs the learner's code changed: their values, or their metadata (shape, dtype: `unsqueeze_`, `t_`,
    `resize_`, `as_strided_`, `set_` leave the bytes alone but not the caller's tensor), or their strides and offset
    (`relaid`: what the child saw change between the call and its end, where the case's protocol recorded them)."""
    problems = []
    for name, node in after.items():
        before = case.inputs.args.get(name)
        now = codec.decode(node, buffers)
        if not isinstance(now, codec.TensorValue) or before is None:
            continue
        original = torch.as_tensor(before)
        was = _metadata(before, original)
        changed = _metadata_change(was, (now.shape, now.dtype), (relaid or {}).get(name))
        if changed is not None:
            problems.append(Problem("inplace", f"input {name}", tr(
                "your code changed the {what} of the input '{name}' in place ({how}); work on a copy "
                "(x = x.unsqueeze(-1), not x.unsqueeze_(-1))", what=changed[0], name=name, how=changed[1])))
            continue
        if now.data is None or original.shape != now.data.shape:
            continue
        same = torch.equal(original.to(now.data.dtype), now.data) or (
            original.dtype.is_floating_point and torch.allclose(original.double(), now.data.double(), rtol=0, atol=0, equal_nan=True))
        if not same:
            problems.append(Problem("inplace", f"input {name}", tr("your code modified the input '{name}' in place "
                                                                   "(masked_fill_, +=, [...] = …); work on a copy or use "
                                                                   "out-of-place ops", name=name)))
    return problems


def _metadata(before: Any, original: torch.Tensor) -> tuple[tuple[int, ...], str]:
    """An input's shape and dtype as the codec names them (numpy arrays by numpy's name)."""
    dtype = before.dtype.name if isinstance(before, numpy.ndarray) else str(original.dtype).removeprefix("torch.")
    return tuple(original.shape), dtype


def _metadata_change(was: tuple, now: tuple, relaid: list | None) -> tuple[str, str] | None:
    """(what changed, from what to what) in the learner's terms, or None: shape first, then dtype, then strides."""
    if tuple(was[0]) != tuple(now[0]):
        return tr("shape"), f"{tuple(was[0])} → {tuple(now[0])}"
    if was[1] != now[1]:
        return tr("dtype"), f"{was[1]} → {now[1]}"
    if relaid:
        return tr("strides"), f"{relaid[0]} → {relaid[1]}"  # "stride (4, 1), offset 0", from the child
    return None


def _plain(value: Any) -> bool:
    """A value the report can show as it is: a number, a string, or short lists of them (bpe's probe texts)."""
    if isinstance(value, (int, float, bool, str, type(None))):
        return True
    return isinstance(value, (list, tuple)) and len(value) <= 64 and all(_plain(v) for v in value)


def _inputs_info(case: spec_api.Case) -> tuple[TensorInfo, ...]:
    infos = []
    for name, value in case.inputs.args.items():
        if isinstance(value, numpy.ndarray) and value.dtype.kind not in "biuf":  # ids as strings (roc-auc's groups)
            kind = "str" if value.dtype.kind == "U" else value.dtype.name
            infos.append(TensorInfo(name, tuple(value.shape), kind, value.tolist() if value.size <= SMALL else None))
        elif isinstance(value, torch.Tensor) or hasattr(value, "__array__") and hasattr(value, "shape"):
            t = torch.as_tensor(value)
            values = t.tolist() if t.numel() <= SMALL and t.device.type != "meta" else None
            infos.append(TensorInfo(name, tuple(t.shape), str(t.dtype).removeprefix("torch."), values))
        elif value is spec_api.RUN_DEVICE:
            infos.append(TensorInfo(name, None, "run device", None))
        else:
            infos.append(TensorInfo(name, None, type(value).__name__, value if _plain(value) else str(value)))
    for name, value in case.inputs.init.items():
        infos.append(TensorInfo(f"init {name}", None, type(value).__name__, value))
    if case.inputs.train:
        infos.append(TensorInfo("mode", None, "str", "train"))
    return tuple(infos)
