"""kata in Chinese, screen by screen: every light command, a stub, a failing and a passing check, help and
usage errors, at 60, 80 and 200 columns and in a pipe with no width given — Chinese on every screen, no
traceback, and no line wider than the screen in terminal cells (a Chinese character takes two). The
status line of `kata watch` and `kata interview` fits its terminal too.

The reports' own layout in Chinese is pinned by the *_zh_* goldens (tests/app/test_reports_golden.py).
"""
from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest
from rich.cells import cell_len
from rich.console import Console

from checker.text import catalog, i18n
from tests.conftest import ROOT
from tests.app.test_reports_golden import WRONG

CHINESE = re.compile(r"[\u4e00-\u9fff]")
WIDTHS = (60, 80, 200, None)  # None: a pipe and no COLUMNS, where rich assumes 80
GAE = catalog.get("gae")


def kata(*args: str, cwd: Path, columns: int | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "KATA_LANG")}
    env["PYTHONIOENCODING"] = "utf-8"
    if columns is not None:
        env["COLUMNS"] = str(columns)
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), "--lang", "zh", *args], cwd=cwd, capture_output=True,
                          text=True, env=env, stdin=subprocess.DEVNULL, timeout=300)


def screen(done: subprocess.CompletedProcess, columns: int | None, *, code: int = 0) -> str:
    """stdout, once it is known to be Chinese, whole and within the screen."""
    width = columns or 80
    shown = done.stdout + done.stderr
    assert "Traceback" not in shown, shown
    assert done.returncode == code, (done.returncode, shown)
    assert CHINESE.search(shown), f"no Chinese on this screen:\n{shown}"
    for line in done.stdout.splitlines():
        if line.startswith("  kata "):
            continue  # a command to copy is printed whole, never wrapped (checker/render command_line)
        assert cell_len(line) <= width, f"{cell_len(line)} cells on a {width}-column screen: {line!r}"
    return done.stdout


@pytest.mark.parametrize("columns", WIDTHS, ids=lambda c: f"{c}-columns" if c else "pipe")
def test_a_session_in_chinese(columns, tmp_path):
    here = tmp_path / "work"
    here.mkdir()
    out = screen(kata(cwd=here, columns=columns), columns)
    assert "kata demo gae" in out and "道题" in out

    out = screen(kata("start", "gae", cwd=here, columns=columns), columns)
    assert "已写入 gae.py" in out
    stub = (here / "gae.py").read_text(encoding="utf-8")
    assert CHINESE.search(stub), "the stub's contract is written in Chinese"

    out = screen(kata("check", "gae", cwd=here, columns=columns), columns, code=1)
    assert "出错" in out and "还没有实现" in out

    why, body = WRONG["gae"]
    (here / "gae.py").write_text(f"# kata: gae\n# why: {why}\n" + textwrap.dedent(body).lstrip(), encoding="utf-8")
    out = screen(kata("check", "gae", "--seed", "5", cwd=here, columns=columns), columns, code=1)
    assert "未通过" in out and "看起来是：" in out and "复现第一个未通过的测试用例" in out
    assert "奖励" in out and "◀" in out  # the timeline, in Chinese

    (here / "gae.py").write_text("# kata: gae\n" + GAE.reference_path.read_text(encoding="utf-8"), encoding="utf-8")
    out = screen(kata("check", "gae", cwd=here, columns=columns), columns)
    assert "通过" in out and "全部通过" in out and "面试官接下来会问" in out

    out = screen(kata("list", cwd=here, columns=columns), columns)
    assert "状态" in out and "已通过" in out and "gae" in out
    out = screen(kata("stats", cwd=here, columns=columns), columns)
    assert "各主题进度" in out and "强化学习" in out
    out = screen(kata("next", cwd=here, columns=columns), columns)
    assert "下一题" in out
    out = screen(kata("hint", "gae", cwd=here, columns=columns), columns)
    assert "gae 的提示 1/" in out
    out = screen(kata("followup", "gae", cwd=here, columns=columns), columns)
    assert "gae 的追问" in out and "1. " in out
    out = screen(kata("cases", "gae", cwd=here, columns=columns), columns)
    assert "done_in_middle" in out and "单独运行" in out
    out = screen(kata("config", cwd=here, columns=columns), columns)
    assert "lang = " in out


@pytest.mark.parametrize("columns", WIDTHS, ids=lambda c: f"{c}-columns" if c else "pipe")
@pytest.mark.parametrize("args", [("--help",), ("check", "--help"), ("interview", "--help")], ids=" ".join)
def test_help_in_chinese(args, columns, tmp_path):
    out = screen(kata(*args, cwd=tmp_path, columns=columns), columns)
    assert out.startswith("用法: kata") and "选项:" in out and "显示本帮助并退出" in out
    if args == ("--help",):
        assert "命令:" in out and "检查你的文件" in out


@pytest.mark.parametrize("args, says", [
    (("check", "gae", "--sed", "3"), "没有这个选项：'--sed'"),
    (("check", "gae", "one", "two"), "多出了几个参数"),
    (("check", "gae", "--seed", "abc"), "'--seed' 的值无效"),
    (("nosuch",), "没有这个命令：'nosuch'"),
])
def test_usage_errors_in_chinese(args, says, tmp_path):
    done = kata(*args, cwd=tmp_path, columns=80)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert says in done.stderr and "用法: kata" in done.stderr and "查看帮助" in done.stderr, done.stderr


def test_a_kata_error_in_chinese(tmp_path):
    done = kata("start", "gea", cwd=tmp_path, columns=80)
    assert done.returncode == 2
    assert done.stderr.startswith("kata：没有名为 'gea' 的 kata。你是不是想找 ") and "'gae'" in done.stderr, done.stderr
    assert done.stderr.rstrip().endswith("运行 kata list 查看全部。"), done.stderr


# ---------------------------------------------------------------- watch and interview


@pytest.mark.parametrize("width", (30, 40, 60, 80, 200))
@pytest.mark.parametrize("interview", (False, True), ids=("watch", "interview"))
def test_the_status_line_fits_in_chinese(width, interview):
    from checker.app.watch import Interview, Watcher

    out = io.StringIO()
    running = Interview("session", deadline=1000.0 + 754, started=900.0) if interview else None
    watcher = SimpleNamespace(path=Path("grpo_advantage.py"), seed=81723, interview=running, clock=lambda: 1000.0,
                              console=Console(file=out, width=width, force_terminal=False), _status_shown="")
    with i18n.speaking("zh"):
        Watcher.status(watcher, force=True)
    line = out.getvalue().rstrip("\n")
    assert "\n" not in line and 0 < cell_len(line) <= width - 1, (width, line)
    if interview:
        assert line.startswith("剩余 12:34"), line
    elif width >= 80:
        assert line.startswith("监视 grpo_advantage.py"), line
    if width >= 40:  # the keys stay; the other parts shorten first
        assert line.endswith(("h 提示 · r 换种子重跑 · q 结束", "h 提示 · r 重跑 · q 结束")), line
    if width >= 80:
        assert line.endswith("h 提示 · r 换种子重跑 · q 结束"), line  # r draws a new seed, and says so


def test_kata_interview_in_chinese_in_a_terminal(tmp_path, kata_home):
    from tests.app.test_watch import Terminal

    term = Terminal(["--lang", "zh", "interview", "--minutes", "5", "--topic", "rl", "--device", "cpu"], tmp_path,
                    dict(os.environ))
    try:
        term.expect(r"模拟面试：\S+——")
        term.expect(r"你有 5 分钟")
        term.expect(r"剩余 0[45]:\d\d · 监视 \S+（种子 \d+） · 保存即重新检查")
        term.type("h")
        term.expect(r"的提示 1/")
        term.type("q")
        term.expect(r"模拟面试在 .+ 后停止（提示 1 次，看答案 0 次，检查 0 次）；记为未通过。")
    finally:
        code = term.finish()
    assert code == 1
