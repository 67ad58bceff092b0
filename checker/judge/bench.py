"""`kata check --bench`: time the learner's code against the reference on one large input.

Interviews ask to vectorise; this says how far off a loop is ("your gae: 41 ms, reference:
0.9 ms on cuda"). Both run in forked children like a check, the learner's isolated as usual.
A spec opts in with `BENCH = (label, make)`, where make(generator) -> Inputs, and may add a line
about the learner's run with `bench_note(kata, entry, inputs, device) -> str` (flash-attention: the
memory it took against the full score matrix's).
"""
from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

import torch

from checker.judge import spec as spec_api
from checker.judge.runner import Children
from checker.judge.worker import Limits, isolate, load_entry, send

REPEATS = 7


def _timed(kata: Any, spec: Any, entry: Any, inputs: spec_api.Inputs, device: torch.device, repeats: int = REPEATS) -> float:
    """Median wall time of one run of a case in milliseconds (after one warm-up), synchronised on GPUs.
    A case runs as a check runs it: through the spec's `call` hook (a whole decoding schedule for a
    kata that calls its module several times)."""
    call = getattr(spec, "call", spec_api.call)
    samples = []
    for i in range(repeats + 1):
        if device.type == "cuda":
            torch.cuda.synchronize()
        started = time.perf_counter()
        call(kata, entry, inputs, device)
        if device.type == "cuda":
            torch.cuda.synchronize()
        if i:
            samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def bench(kata: Any, spec: Any, path: Path, device: torch.device, seconds: float = 60.0,
          repeats: int = REPEATS) -> dict[str, Any] | None:
    """{"yours_ms", "reference_ms", "shape"[, "note"]}: the median of `repeats` timed runs of each on the
    spec's BENCH input; {"failed": role, "shape"} when one could not run it; None without a BENCH."""
    plan = getattr(spec, "BENCH", None)
    if plan is None:
        return None
    label, make = plan
    inputs = make(torch.Generator().manual_seed(0))
    children = Children(Limits(seconds=seconds))
    timings: dict[str, float] = {}
    notes: dict[str, str] = {}
    try:
        for role, source, module in (("yours_ms", path, "kata_learner_bench"), ("reference_ms", kata.reference_path, "kata_reference_bench")):
            def body(fd: int, source: Path = source, module: str = module, role: str = role) -> None:
                if role == "yours_ms":
                    isolate(children.capture.fileno(), children.limits, device, fd)
                entry = load_entry(source, kata.entry, module)
                message = {"m": "bench", "ms": _timed(kata, spec, entry, inputs, device, repeats)}
                note = getattr(spec, "bench_note", None)
                if role == "yours_ms" and note is not None:
                    message["note"] = note(kata, entry, inputs, device)
                send(fd, message)

            stream = children.fork(body)
            children.collect([stream], time.monotonic() + seconds)
            found = stream.has("bench")
            if found is None:  # it raised, ran out of time or memory on the large input
                return {"failed": role, "shape": label}
            timings[role] = float(found[0]["ms"])
            if "note" in found[0]:
                notes["note"] = str(found[0]["note"])
    finally:
        children.cleanup()
    return {**timings, "shape": label, **notes}
