"""Every command and its error paths, through the real typer app (CliRunner) and the console script."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cli
from checker.text import catalog
from tests.conftest import ROOT

runner = CliRunner()


def kata(*args: str, cwd: Path | None = None, input: str | None = None):
    """Run the console entry point (main(), the one place exit codes are decided) in a subprocess."""
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], cwd=cwd, capture_output=True, text=True,
                          input=input, env={**os.environ, "COLUMNS": "100"}, timeout=120)


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_help_says_what_every_command_does():
    result = runner.invoke(cli.app, ["--help"])
    assert result.exit_code == 0, result.output
    for command in ("list", "start", "check", "reveal", "hint"):
        assert command in result.output
        sub = runner.invoke(cli.app, [command, "--help"])
        assert sub.exit_code == 0 and "Example: kata" in sub.output, sub.output


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_command_built_alone_is_the_command_built_with_the_rest(lang):
    """main() builds only the command a command line names (cli.COMMANDS): its help, options and defaults must
    be exactly those of the whole app's."""
    import click
    import typer

    from checker.text import i18n

    with i18n.speaking(lang):
        whole = typer.main.get_command(cli.make_app())
        assert isinstance(whole, click.Group) and sorted(whole.commands) == sorted(cli.COMMANDS)
        for name in cli.COMMANDS:
            alone = typer.main.get_command(cli.make_app(only=name))
            assert isinstance(alone, click.Group) and list(alone.commands) == [name]
            ctx, ctx_alone = click.Context(whole), click.Context(alone)
            with ctx, ctx_alone:
                expected = whole.commands[name].get_help(click.Context(whole.commands[name], info_name=name, parent=ctx))
                got = alone.commands[name].get_help(click.Context(alone.commands[name], info_name=name, parent=ctx_alone))
            assert got == expected, name
            assert [p.name for p in alone.commands[name].params] == [p.name for p in whole.commands[name].params]


def test_a_mistyped_command_is_still_matched_against_every_command():
    result = kata("chek", "gae")
    assert result.returncode == 2 and "check" in result.stderr, result.stderr


@pytest.mark.parametrize("command", ["start", "check", "watch", "interview"])
def test_help_shows_defaults_as_plain_text(command):
    """Help is plain click text: typer's rich-markup escape once printed a stray backslash, '\\[default: .]'."""
    result = kata(command, "--help")
    assert result.returncode == 0, result.stderr
    assert "[default: " in result.stdout and "\\[" not in result.stdout, result.stdout


def test_list_shows_every_kata_with_status(workdir):
    result = runner.invoke(cli.app, ["list"])
    assert result.exit_code == 0, result.output
    for k in catalog.KATAS:
        assert k.id in result.output
    assert "new" in result.output


@pytest.mark.parametrize("name", ["rl", "RL", "Rl", "classic ML", "classic-ml", "CLASSIC", "强化学习"])
def test_list_topic_takes_the_names_the_list_shows(workdir, name):
    """`kata list --topic` takes what the topic column says ("RL", "classic ML", in either language), in any case."""
    result = runner.invoke(cli.app, ["list", "--topic", name], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    ids = {line.split()[0].lstrip("▶") for line in result.output.splitlines()[2:] if line.startswith("  ")}
    topic = "classic" if "classic" in name.lower() else "rl"
    assert ids == {k.id for k in catalog.KATAS if k.topic == topic}, result.output


def test_next_and_interview_take_topic_names_too():
    from checker.app import practice

    assert {s.kata.topic for s in practice.suggest([], topic="Classic ML")} == {"classic"}
    with pytest.raises(Exception, match="No topic named 'vision'"):
        practice.suggest([], topic="vision")


def test_reset_of_a_kata_never_started_says_it_wrote_the_stub(workdir):
    fresh = runner.invoke(cli.app, ["reset", "rope"])
    assert fresh.exit_code == 0, fresh.output
    assert "Wrote the stub of rope at rope.py" in fresh.output and "Restored" not in fresh.output
    (workdir / "rope.py").write_text((workdir / "rope.py").read_text() + "\n# mine\n")
    again = runner.invoke(cli.app, ["reset", "rope"])
    assert "Restored the stub of rope at rope.py (your file is kept as rope.py.bak-1)" in again.output, again.output


def test_start_writes_the_stub_and_never_overwrites(workdir):
    first = kata("start", "gae", cwd=workdir)
    assert first.returncode == 0, first.stderr
    stub = workdir / "gae.py"
    assert stub.read_text().startswith("# kata: gae\n")
    stub.write_text(stub.read_text() + "\n# my work\n")
    again = kata("start", "gae", cwd=workdir)  # the learner's file is resumed, never overwritten
    assert again.returncode == 0 and "resuming it" in again.stdout, again.stdout + again.stderr
    assert "# my work" in stub.read_text() and not (workdir / "gae.py.bak-1").exists()
    forced = kata("start", "gae", "--force", cwd=workdir)
    assert forced.returncode == 0, forced.stderr
    assert "# my work" in (workdir / "gae.py.bak-1").read_text()
    assert "# my work" not in stub.read_text()
    kata("start", "gae", "--force", cwd=workdir)
    assert (workdir / "gae.py.bak-2").exists()


def test_start_into_a_place_that_cannot_be_written(workdir):
    (workdir / "afile").write_text("x")
    result = kata("start", "gae", "--dir", str(workdir / "afile"), cwd=workdir)
    assert result.returncode == 2 and "not a directory" in result.stderr


def test_start_into_a_read_only_directory(workdir, monkeypatch):
    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "write_text", refuse)
    result = runner.invoke(cli.app, ["start", "gae", "--dir", str(workdir / "ro")])
    assert result.exit_code != 0
    assert isinstance(result.exception, Exception) and "Permission denied" in str(result.exception)


def test_unknown_kata_suggests_the_close_one(workdir):
    for command in (["start", "gea"], ["hint", "gea"], ["reveal", "gea"], ["check", "gea"]):
        result = kata(*command, cwd=workdir)
        assert result.returncode == 2, (command, result.stderr)
        # 'gqa' is as close to "gea" as 'gae' is: both may be offered, 'gae' must be.
        assert "Did you mean" in result.stderr and "'gae'" in result.stderr.split("Did you mean", 1)[1]


def test_check_exit_codes_stub_fail_pass_and_json(workdir):
    kata("start", "gae", cwd=workdir)
    stub = kata("check", "gae", "--seed", "3", cwd=workdir)
    assert stub.returncode == 1 and "not implemented" in stub.stdout
    (workdir / "gae.py").write_text("# kata: gae\n" + catalog.get("gae").reference_path.read_text())
    ok = kata("check", cwd=workdir)  # no target: the current kata
    assert ok.returncode == 0, ok.stdout
    assert "PASS" in ok.stdout
    doc = kata("check", "gae", "--json", "--seed", "9", cwd=workdir)
    data = json.loads(doc.stdout)  # exactly one JSON document and nothing else
    assert data["verdict"] == "pass" and data["seed"] == 9 and data["kata"] == "gae" and data["total"] >= 100
    assert {"name", "family", "status", "problems"} <= set(data["cases"][0])


def test_a_failing_case_prints_the_command_that_reproduces_it(workdir):
    source = catalog.get("gae").reference_path.read_text().replace("1.0 - dones.to(rewards.dtype)", "torch.ones_like(rewards)")
    (workdir / "gae.py").write_text("# kata: gae\n" + source)
    result = kata("check", "gae", "--seed", "42", cwd=workdir)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    command = lines[lines.index("Reproduce the first failure:") + 1].split()
    assert command[:5] == ["kata", "check", "gae", "--seed", "42"] and command[5] == "--case"
    only = kata(*command[1:], "--json", cwd=workdir)
    data = json.loads(only.stdout)
    assert only.returncode == 1 and data["total"] == 1 and data["cases"][0]["name"] == command[6]


def test_check_usage_errors(workdir):
    missing = kata("check", "nothing/here.py", cwd=workdir)
    assert missing.returncode == 2 and "No file at" in missing.stderr
    (workdir / "adir.py").mkdir()
    directory = kata("check", "adir.py", "--kata", "gae", cwd=workdir)
    assert directory.returncode == 2 and "is a directory" in directory.stderr
    none = kata("check", cwd=workdir)
    assert none.returncode == 2 and "No current kata" in none.stderr
    (workdir / "mine.py").write_text("def f(): pass\n")
    unknown = kata("check", "mine.py", cwd=workdir)
    assert unknown.returncode == 2 and "# kata:" in unknown.stderr
    not_here = kata("check", "gae", cwd=workdir)
    assert not_here.returncode == 2 and "kata start gae" in not_here.stderr
    (workdir / "gae.py").write_text("# kata: gae\n" + catalog.get("gae").reference_path.read_text())
    bad_case = kata("check", "gae", "--case", "done_at_lst_step", cwd=workdir)
    assert bad_case.returncode == 2 and "done_at_last_step" in bad_case.stderr
    bad_device = kata("check", "gae", "--device", "tpu", cwd=workdir)
    assert bad_device.returncode == 2 and "Unknown device" in bad_device.stderr
    bad_json = kata("check", "gea", "--json", cwd=workdir)
    assert bad_json.returncode == 2 and "Did you mean" in json.loads(bad_json.stdout)["error"]


def test_unreadable_file_is_a_usage_error(workdir, monkeypatch):
    target = workdir / "gae.py"
    target.write_text("# kata: gae\n")

    def refuse(self):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "read_bytes", refuse)
    from checker.judge import static
    from checker.errors import KataError

    with pytest.raises(KataError, match="Cannot read"):
        static.read_source(target)


def test_hints_climb_the_ladder_then_repeat_the_last(workdir):
    gae = catalog.get("gae")
    seen = [runner.invoke(cli.app, ["hint", "gae"]).output for _ in range(len(gae.hints) + 1)]
    for number, text in enumerate(gae.hints, start=1):
        assert f"Hint {number}/{len(gae.hints)}" in seen[number - 1]
    n = len(gae.hints)  # past the end: the last hint again, said as such, and where to go from here
    assert f"The last hint ({n}/{n})" in seen[-1] and "kata reveal gae" in seen[-1] and f"Hint {n}/" not in seen[-1]


def test_reveal_shows_the_reference_and_records_it(workdir):
    result = kata("reveal", "gae", "--yes", cwd=workdir)
    assert result.returncode == 0, result.stderr
    assert "def compute_gae" in result.stdout
    listed = runner.invoke(cli.app, ["list"])
    assert "revealed" in listed.output


def test_kata_home_missing_is_created(tmp_path, monkeypatch):
    home = tmp_path / "deep" / "missing" / "home"
    monkeypatch.setenv("KATA_HOME", str(home))
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(cli.app, ["hint", "softmax"])
    assert result.exit_code == 0
    assert (home / "history.db").exists()


def test_every_kata_has_a_good_ladder_and_stub():
    for k in catalog.KATAS:
        assert 2 <= len(k.hints) <= 5, k.id  # CONTRIBUTING: 2 to 5, from a nudge to the key line
        assert k.stub_path.exists() and k.reference_path.exists(), k.id
        stub = k.stub_path.read_text()
        assert f"# kata: {k.id}" in stub.splitlines()[0]
        assert "NotImplementedError" in stub
        assert k.entry in stub


def test_check_writes_nothing_where_it_runs(workdir, tmp_path_factory):
    """Running from a directory you cannot write works: a check writes only to KATA_HOME."""
    elsewhere = tmp_path_factory.mktemp("solutions") / "gae.py"
    elsewhere.write_text("# kata: gae\n" + catalog.get("gae").reference_path.read_text())
    listing = lambda: sorted(p.name for p in workdir.iterdir() if p.name != "kata-home")  # noqa: E731
    before = listing()
    result = kata("check", str(elsewhere), "--seed", "2", cwd=workdir)
    assert result.returncode == 0, result.stdout
    assert listing() == before
    assert sorted(p.name for p in elsewhere.parent.iterdir()) == ["gae.py"]


def test_eight_checks_at_once_record_eight_entries(workdir):
    """Concurrent `kata check` processes share one history store: nothing lost, nothing doubled."""
    (workdir / "gae.py").write_text("# kata: gae\n" + catalog.get("gae").reference_path.read_text())
    env = {**os.environ, "COLUMNS": "100"}
    procs = [subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "check", "gae.py", "--seed", str(seed), "--json"],
                              cwd=workdir, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for seed in range(1, 9)]
    outputs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0] * 8, [err for _, err in outputs]
    from checker.app.state import Store

    checks = Store().events("gae", "check")
    assert sorted(int(e.detail.split()[-1]) for e in checks) == list(range(1, 9))


def test_a_built_wheel_carries_stubs_references_specs_and_the_cli(tmp_path):
    """`pip install .` (not editable) must find katas, references and the checker wherever it lands."""
    import zipfile

    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path), str(ROOT)],
                   check=True, capture_output=True, timeout=300)
    wheel = next(tmp_path.glob("kata-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for k in catalog.KATAS:
        assert f"katas/{k.module}.py" in names and f"reference/{k.module}.py" in names, k.id
        assert f"checker/specs/{k.module}.py" in names, k.id
    assert {"cli.py", "checker/app/render/masks.py", "checker/judge/engine.py"} <= names
    drills = {str(p.relative_to(ROOT)) for p in (ROOT / "content").glob("*/bugs/*.py")}  # what kata bug writes
    drills |= {str(p.relative_to(ROOT)) for p in (ROOT / "content").glob("*/bugs.toml")}
    assert drills and drills <= names, sorted(drills - names)
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "kata = cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()
