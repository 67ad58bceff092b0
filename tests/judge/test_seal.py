"""The learner's process cannot reach kata's solutions, and leaves nothing running behind it.

Each cheat below is a real one: `test_each_cheat_is_a_solution_outside_the_checker` runs it in
this (unsealed) test process and gets the reference's answer, so a check that passed it would be
a check that was fooled. In the learner's child every one of them must fail, saying why.
"""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
import torch

from checker.judge.results import Status
from tests.conftest import ROOT, run_check

REFERENCE = ROOT / "reference" / "gae.py"
GAE_SPEC = "chec" + "ker.specs.gae"  # spelled apart, as a learner hiding it from the static check would
SAID = ("tried to import kata's reference", "tried to read kata's reference")

CHEATS = {
    "import_module": 'import importlib\ncompute_gae = importlib.import_module("reference.gae").compute_gae\n',
    "dunder_import": 'compute_gae = __import__("reference.gae", fromlist=["compute_gae"]).compute_gae\n',
    "spec_variant": (f'import importlib\nspec = importlib.import_module("{GAE_SPEC}")\n'
                     "compute_gae = spec._gae_variant()  # every switch off: the right computation\n"),
    "spec_attribute": ('import importlib, sys\nimportlib.import_module("chec" + "ker")\n'
                       'compute_gae = getattr(sys.modules["chec" + "ker"], "specs").gae._gae_variant()\n'),
    "spec_from_file_location": (
        "import importlib.util\n"
        f"s = importlib.util.spec_from_file_location('ref', {str(REFERENCE)!r})\n"
        "m = importlib.util.module_from_spec(s)\ns.loader.exec_module(m)\ncompute_gae = m.compute_gae\n"),
    "runpy_run_path": f"import runpy\ncompute_gae = runpy.run_path({str(REFERENCE)!r})['compute_gae']\n",
    "runpy_run_module": ('import runpy, sys\nsys.path.insert(0, ' + repr(str(ROOT)) + ')\n'
                         "compute_gae = runpy.run_module('reference.gae')['compute_gae']\n"),
    "open_exec": f"ns = {{}}\nexec(open({str(REFERENCE)!r}).read(), ns)\ncompute_gae = ns['compute_gae']\n",
    "pathlib_exec": (f"import pathlib\nns = {{}}\nexec(pathlib.Path({str(REFERENCE)!r}).read_text(), ns)\n"
                     "compute_gae = ns['compute_gae']\n"),
    "symlink_exec": ("import os, tempfile\nlink = os.path.join(tempfile.mkdtemp(), 'r.py')\n"
                     f"os.symlink({str(REFERENCE)!r}, link)\nns = {{}}\nexec(open(link).read(), ns)\n"
                     "compute_gae = ns['compute_gae']\n"),
    "dir_fd_open": ("import os\n"
                    f"root = os.open({str(ROOT)!r}, os.O_RDONLY)\n"
                    "fd = os.open('reference/gae.py', os.O_RDONLY, dir_fd=root)\n"
                    "ns = {}\nexec(os.read(fd, 1 << 20).decode(), ns)\ncompute_gae = ns['compute_gae']\n"),
    "pycache": ("import importlib.util, marshal, glob, os\n"
                f"pyc = glob.glob(os.path.join({str(REFERENCE.parent)!r}, '__pycache__', 'gae.*.pyc'))[0]\n"
                "ns = {}\nexec(marshal.loads(open(pyc, 'rb').read()[16:]), ns)\ncompute_gae = ns['compute_gae']\n"),
    "inside_the_function": ("def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):\n"
                            "    import importlib\n"
                            "    return importlib.import_module('reference.gae').compute_gae(rewards, dones, values, gamma, lam)\n"),
    "caught_and_fallen_back": ("def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):\n"
                               "    return rewards, rewards\n"
                               "try:\n    import importlib\n"
                               "    compute_gae = importlib.import_module('reference.gae').compute_gae\n"
                               "except Exception:\n    pass\n"),
}


@pytest.fixture(autouse=True)
def kata_home(tmp_path_factory, monkeypatch):
    """kata's home beside the learner's folder, not in it: the learner's code writes its markers there, and a
    folder that holds kata's home cannot be written (Landlock grants a folder with all it holds)."""
    home = tmp_path_factory.mktemp("kata-home")
    monkeypatch.setenv("KATA_HOME", str(home))
    return home


def _learner(tmp_path: Path, body: str, name: str = "gae.py") -> Path:
    target = tmp_path / name
    target.write_text("# kata: gae\n" + body)
    return target


def _said(result) -> str:
    parts = [result.message]
    for case in result.cases:
        if case.error:
            parts += [case.error.type, case.error.message]
    return "\n".join(parts)


@pytest.fixture(scope="module")
def compiled_reference():
    """The reference's bytecode on disk, as any run of kata leaves it (the `pycache` cheat reads it)."""
    import py_compile

    py_compile.compile(str(REFERENCE), cfile=importlib.util.cache_from_source(str(REFERENCE)), doraise=True)


@pytest.mark.parametrize("cheat", [c for c in CHEATS if c != "caught_and_fallen_back"])
def test_each_cheat_is_a_solution_outside_the_checker(tmp_path, cheat, compiled_reference):
    target = _learner(tmp_path, CHEATS[cheat])
    module_spec = importlib.util.spec_from_file_location(f"cheat_{cheat}", target)
    module = importlib.util.module_from_spec(module_spec)
    saved = dict(sys.modules), list(sys.path)
    try:
        if cheat == "spec_attribute":
            importlib.import_module(GAE_SPEC)
        module_spec.loader.exec_module(module)
        g = torch.Generator().manual_seed(0)
        rewards, values = torch.randn(9, generator=g), torch.randn(9, generator=g)
        dones = torch.tensor([0, 0, 1, 0, 0, 0, 1, 0, 0], dtype=torch.bool)
        from reference.gae import compute_gae

        got, want = module.compute_gae(rewards, dones, values), compute_gae(rewards, dones, values)
    finally:
        sys.path[:] = saved[1]
        for name in set(sys.modules) - set(saved[0]):
            if name.startswith(("reference", "cheat_")):
                del sys.modules[name]
    torch.testing.assert_close(got, want)


@pytest.mark.parametrize("cheat", list(CHEATS))
def test_no_cheat_reaches_the_reference_in_the_learners_process(tmp_path, cheat, compiled_reference):
    target = _learner(tmp_path, CHEATS[cheat])
    result = run_check(target, "gae", seed=4, timeout=30.0)
    said = _said(result)
    assert result.status is Status.ERROR, said
    assert any(s in said for s in SAID), said


def test_a_module_beside_the_learners_file_cannot_reach_it_either(tmp_path):
    (tmp_path / "helpers.py").write_text("import importlib\nreference = importlib.import_module('reference.gae')\n")
    target = _learner(tmp_path, "from helpers import reference\ncompute_gae = reference.compute_gae\n")
    result = run_check(target, "gae", seed=4, timeout=30.0)
    assert result.status is Status.ERROR and "tried to import kata's reference: reference" in result.message, _said(result)


@pytest.mark.parametrize("reach", [
    'sys.modules["checker.specs.mha"]._MHA',
    'getattr(sys.modules["checker"], "specs").mha._MHA',
    'importlib.import_module("checker.specs.mha").MISTAKES[0].fn.__mro__[1]',
])
def test_the_spec_a_module_kata_was_drawn_from_is_out_of_reach(tmp_path, reach):
    """For mha the spec's switchable class, with every switch off, is the reference: `_MHA`."""
    import checker.specs.mha as spec

    assert spec._MHA.__name__ == "_MHA"  # in this process (and so in a forked child) the spec is loaded
    target = tmp_path / "mha.py"
    target.write_text(f"# kata: mha\nimport importlib, sys\nMultiHeadAttention = {reach}\n")
    result = run_check(target, "mha", seed=2, timeout=30.0)
    said = _said(result)
    assert result.status is Status.ERROR, said
    assert "tried to import kata's reference: checker.specs" in said, said


def test_a_module_katas_switchable_class_is_emptied_where_subclasses_still_list_it(tmp_path):
    """`nn.Module.__subclasses__()` lists the spec's `_MHA` whatever sys.modules says: it has no methods left."""
    target = tmp_path / "mha.py"
    target.write_text(textwrap.dedent("""\
        # kata: mha
        import torch.nn as nn

        def every(cls):
            for sub in cls.__subclasses__():
                yield sub
                yield from every(sub)

        MultiHeadAttention = next(c for c in every(nn.Module) if c.__qualname__ == "_MHA")
        """))
    result = run_check(target, "mha", seed=2, case="no_mask", timeout=30.0)
    assert result.status is Status.ERROR, _said(result)
    assert "__init__() got an unexpected keyword argument" in _said(result) or "forward" in _said(result), _said(result)


def test_searching_memory_for_kata_objects_is_refused(tmp_path):
    target = _learner(tmp_path, textwrap.dedent("""\
        import gc
        gc.unfreeze()
        found = [o for o in gc.get_objects() if callable(o) and getattr(o, "__module__", "") == "checker.specs.gae"]

        def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
            return rewards, rewards
        """))
    result = run_check(target, "gae", seed=4, timeout=30.0)
    assert result.status is Status.ERROR and "tried to search kata's objects in memory: gc.get_objects" in result.message, _said(result)


def test_a_cheat_in_the_function_fails_each_case_it_runs_in(tmp_path):
    result = run_check(_learner(tmp_path, CHEATS["inside_the_function"]), "gae", seed=4, timeout=30.0)
    assert result.status is Status.ERROR and result.cases
    assert all(c.error is not None and "tried to import kata's reference: reference.gae" in c.error.message for c in result.cases)


def test_the_warm_watcher_holds_the_reference_and_the_learner_still_cannot_reach_it(tmp_path):
    """`kata watch` runs the reference and the mistakes in its own process (the reference loaded as
    kata_warm_gae) before it forks the learner's child: the seal holds there too."""
    from tests.app.test_watch import Keys, make_watcher

    path = tmp_path / "gae.py"
    path.write_text("# kata: gae\n" + CHEATS["spec_variant"])
    keys = Keys()
    watcher, _ = make_watcher(path, keys, seconds=30.0)
    try:
        for cheat in ("spec_variant", "import_module", "open_exec", "caught_and_fallen_back"):
            path.write_text("# kata: gae\n" + CHEATS[cheat])
            result = watcher.recheck()
            assert result.status is Status.ERROR and any(s in _said(result) for s in SAID), (cheat, _said(result))
        path.write_text("# kata: gae\nimport importlib\ncompute_gae = importlib.import_module('kata_warm_gae').compute_gae\n")
        result = watcher.recheck()
        assert result.status is Status.ERROR and "tried to import kata's reference: kata_warm_gae" in _said(result), _said(result)
        path.write_text("# kata: gae\n" + RIGHT)
        assert watcher.recheck().passed  # and the watcher, sealed nowhere itself, still checks
    finally:
        watcher.files.close()
        keys.close()


def test_kata_own_code_still_works_in_the_sealed_child(tmp_path):
    """A right answer that warns, quotes its stack and imports lazily passes: the seal refuses only
    what reaches for kata's code, and a library reading the stack's own sources is no such reach."""
    target = _learner(tmp_path, textwrap.dedent("""\
        import inspect, traceback, warnings
        import torch

        def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
            import json, decimal  # lazy imports of the standard library
            traceback.extract_stack()
            inspect.stack()
            warnings.warn("a warning of the learner's own", stacklevel=3)
            T = rewards.shape[0]
            nd = 1.0 - dones.to(rewards.dtype)
            adv = torch.zeros_like(rewards)
            gae, nxt = torch.zeros_like(rewards[0]), torch.zeros_like(rewards[0])
            for t in reversed(range(T)):
                delta = rewards[t] + gamma * nxt * nd[t] - values[t]
                gae = delta + gamma * lam * nd[t] * gae
                adv[t], nxt = gae, values[t]
            return (adv - adv.mean()) / (adv.std() + 1e-8), adv + values
        """))
    result = run_check(target, "gae", seed=4, timeout=60.0)
    assert result.status is Status.PASS, _said(result)


def test_kata_own_lazy_imports_work_while_the_learners_code_runs(tmp_path, monkeypatch):
    """A spec's call hook may wrap the learner's function in a torch function mode (the device
    tracker does) that imports a module of kata's lazily, with the learner's frames below it."""
    from torch.overrides import TorchFunctionMode

    from checker.judge import spec as spec_api

    gae_spec = importlib.import_module(GAE_SPEC)
    monkeypatch.delitem(sys.modules, "checker.judge.bench", raising=False)  # so the child has to read it from disk

    class LazyMode(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            if func is torch.zeros_like:  # called by the learner's function, not by kata's set-up around it
                importlib.import_module("checker.judge.bench")
            return func(*args, **(kwargs or {}))

    def call(kata, entry, inputs, device, track_device=False):
        with LazyMode():
            return spec_api.call(kata, entry, inputs, device, track_device)

    monkeypatch.setattr(gae_spec, "call", call, raising=False)
    result = run_check(_learner(tmp_path, RIGHT), "gae", seed=4, case="done_in_middle")
    assert result.status is Status.PASS, _said(result)


def test_a_module_kata_passes_sealed(tmp_path):
    """mha's call hook lives in a sealed module (checker.specs._attention): the child keeps what it uses."""
    target = tmp_path / "mha.py"
    target.write_text("# kata: mha\n" + (ROOT / "reference" / "mha.py").read_text())
    result = run_check(target, "mha", seed=2, timeout=60.0)
    assert result.status is Status.PASS, _said(result)


# ---------------------------------------------------------------- processes the learner leaves behind

RIGHT = textwrap.dedent("""\
    def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
        import torch
        T = rewards.shape[0]
        nd = 1.0 - dones.to(rewards.dtype)
        adv = torch.zeros_like(rewards)
        gae, nxt = torch.zeros_like(rewards[0]), torch.zeros_like(rewards[0])
        for t in reversed(range(T)):
            delta = rewards[t] + gamma * nxt * nd[t] - values[t]
            gae = delta + gamma * lam * nd[t] * gae
            adv[t], nxt = gae, values[t]
        return (adv - adv.mean()) / (adv.std() + 1e-8), adv + values
    """)

SETSID = textwrap.dedent("""\
    import os, time
    pid = os.fork()
    if pid == 0:
        os.setsid()
        open({marker!r}, "w").write(str(os.getpid()))
        time.sleep(300)
        os._exit(0)
    while not os.path.exists({marker!r}) or not open({marker!r}).read():
        time.sleep(0.01)
    """)

DOUBLE_FORK = textwrap.dedent("""\
    import os, time
    first = os.fork()
    if first == 0:
        if os.fork() == 0:
            os.setsid()
            open({marker!r}, "w").write(str(os.getpid()))
            time.sleep(300)
        os._exit(0)
    os.waitpid(first, 0)
    while not os.path.exists({marker!r}) or not open({marker!r}).read():
        time.sleep(0.01)
    """)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")
    try:
        return "State:\tZ" not in status.read_text()
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a child subreaper is Linux's")
@pytest.mark.parametrize("escape", [SETSID, DOUBLE_FORK], ids=["setsid", "double_fork"])
@pytest.mark.parametrize("pidfd", [True, False], ids=["pidfd", "polling"])
def test_a_detached_grandchild_neither_delays_the_verdict_nor_outlives_the_check(tmp_path, escape, pidfd, monkeypatch):
    if not pidfd:  # where there is no pidfd (Linux before 5.3, other systems) the parent polls for the child's end
        monkeypatch.setattr("checker.judge.runner._pidfd", lambda pid: -1)
    marker = tmp_path / "grandchild"
    target = _learner(tmp_path, escape.format(marker=str(marker)) + RIGHT)
    started = time.monotonic()
    result = run_check(target, "gae", seed=4, timeout=30.0)
    elapsed = time.monotonic() - started
    assert result.status is Status.PASS, _said(result)
    assert elapsed < 15, f"the check waited {elapsed:.1f} s on a process that holds its channel open"
    grandchild = int(marker.read_text())
    for _ in range(100):
        if not _alive(grandchild):
            break
        time.sleep(0.02)
    assert not _alive(grandchild), "the learner's detached grandchild outlived the check"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a child subreaper is Linux's")
def test_processes_this_process_already_had_are_left_alone(tmp_path):
    """A pytest worker runs many checks: a child it started before a check survives the check's sweep."""
    own = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        marker = tmp_path / "grandchild"
        result = run_check(_learner(tmp_path, SETSID.format(marker=str(marker)) + RIGHT), "gae", seed=4, timeout=30.0)
        assert result.status is Status.PASS, _said(result)
        assert own.poll() is None, "the check killed a process that was not the learner's"
        assert not _alive(int(marker.read_text()))
    finally:
        own.kill()
        own.wait()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and a child subreaper are Linux's")
def test_many_checks_in_one_process_leak_nothing(tmp_path):
    """A pytest worker, or `kata watch`, checks again and again: no descriptor, child or flag is left over."""
    from checker.judge.runner import _PR_GET_CHILD_SUBREAPER, _children_of, _prctl_get

    def state():
        return sorted(os.listdir("/proc/self/fd")), sorted(_children_of(os.getpid())), _prctl_get(_PR_GET_CHILD_SUBREAPER)

    run_check(_learner(tmp_path, RIGHT), "gae", seed=4)  # whatever a first check opens for good (torch's lazy loads)
    before = state()
    for n, escape in enumerate([SETSID, DOUBLE_FORK, ""]):
        marker = tmp_path / f"grandchild{n}"
        result = run_check(_learner(tmp_path, escape.format(marker=str(marker)) + RIGHT), "gae", seed=4)
        assert result.status is Status.PASS, _said(result)
    assert state() == before


def test_a_learner_that_closes_its_channel_and_hangs_times_out(tmp_path):
    """The verdict does not wait on the channel closing, nor on a child that closed it and went on."""
    target = _learner(tmp_path, "import os, time\nfor fd in range(3, 64):\n    try:\n        os.close(fd)\n"
                                "    except OSError:\n        pass\ntime.sleep(300)\n" + RIGHT)
    started = time.monotonic()
    result = run_check(target, "gae", seed=4, timeout=3.0)
    assert time.monotonic() - started < 20
    assert result.status is Status.ERROR and "Timed out" in result.message, _said(result)


# ---------------------------------------------------------------- kata's own children print nothing


def test_kata_own_children_print_nothing_above_the_report(tmp_path):
    """softmax's no-max-subtraction mistake overflows on purpose; its warning is kata's, not the learner's."""
    (tmp_path / "softmax.py").write_text(textwrap.dedent("""\
        # kata: softmax
        import numpy as np
        print("the learner's own line")

        def softmax(x, dim=-1):
            with np.errstate(over="ignore", invalid="ignore"):
                e = np.exp(x)
                return e / e.sum(axis=dim, keepdims=True)
        """))
    env = {**os.environ, "KATA_HOME": str(tmp_path / "home"), "PYTHONWARNINGS": "default", "COLUMNS": "200"}
    proc = subprocess.run([sys.executable, str(ROOT / "cli.py"), "check", "softmax.py", "--seed", "3"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=300)
    everything = proc.stdout + proc.stderr
    assert proc.returncode == 1, everything
    assert "This looks like" in everything, everything  # the mistakes child ran its variants
    assert "RuntimeWarning" not in everything and "overflow encountered" not in everything, everything
    assert "the learner's own line" in everything, everything
