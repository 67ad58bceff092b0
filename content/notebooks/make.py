"""Write the starter notebooks (kata.ipynb, kata.zh.ipynb) from the cells below: one walk-through, two languages.

Run `python content/notebooks/make.py` after changing a cell; tests/app/notebook/test_starter_notebook.py runs both
notebooks top to bottom on a real kernel and fails when a notebook is not what this script writes.
"""
from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent

INSTALL = '''\
# Install kata into this notebook's own environment, once. Nothing the notebook already has (torch, typer, rich,
# IPython) is replaced. KATA_SOURCE: a clone of the kata repository, or a git URL of one ("git+https://…").
import importlib.util, os, sys
KATA_SOURCE = os.environ.get("KATA_SOURCE", "../..")  # the repository this notebook sits in
if importlib.util.find_spec("kata") is None:
    if "google.colab" in sys.modules and not KATA_SOURCE.startswith("git+"):
        raise SystemExit("On Colab, set KATA_SOURCE to a git URL of kata first: "
                         'os.environ["KATA_SOURCE"] = "git+https://…/kata.git"')
    %pip install -q "{KATA_SOURCE}"'''

WRONG = '''\
%%kata gae --seed 1
# kata: gae
import torch


def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
    T = rewards.shape[0]
    advantages = torch.zeros_like(rewards)
    gae = torch.zeros_like(rewards[0])
    for t in reversed(range(T)):
        next_value = values[t + 1] if t + 1 < T else torch.zeros_like(values[0])
        delta = rewards[t] + gamma * next_value - values[t]
        gae = delta + gamma * lam * gae
        advantages[t] = gae
    returns = advantages + values
    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    return advantages, returns'''

RIGHT = WRONG.replace("%%kata gae --seed 1", "%%kata gae").replace(
    "    for t in reversed(range(T)):\n",
    "    not_done = 1.0 - dones.to(rewards.dtype)\n    for t in reversed(range(T)):\n").replace(
    "gamma * next_value - values[t]", "gamma * next_value * not_done[t] - values[t]").replace(
    "gamma * lam * gae", "gamma * lam * not_done[t] * gae")

SPREAD = '''\
def normalised(x, eps=1e-8):
    return (x - x.mean()) / (x.std() + eps)'''

SPREAD_ENTRY = RIGHT.replace("%%kata gae\n# kata: gae\nimport torch\n\n\n", "").replace(
    "(advantages - advantages.mean()) / (advantages.std() + 1e-8)", "normalised(advantages)")

TEXT = {
    "en": {
        "title": "# kata in a notebook\n\nPractise the code ML and LLM interviews ask you to write from memory, checked "
                 "by the same judge as the `kata` command: named edge cases first, then random draws, and a report that "
                 "shows where your code goes wrong.",
        "install": "## 1. Install\n\nRun this once per environment (on Colab, once per runtime). `import kata` then costs "
                   "nothing and prints nothing.",
        "lang": None,
        "start": "## 2. Start a kata\n\n`kata.start(\"gae\")` shows what to write and puts the stub in a new cell under "
                 "`%%kata gae` (where the notebook cannot make one, it prints the stub to copy).",
        "wrong": "## 3. Write it and run the cell\n\nA cell that starts with `%%kata gae` runs as usual, is saved as a file "
                 "under `kata.home()` (so `kata check gae` in a terminal sees it too), and is checked. This first try "
                 "forgets the episode ends (`dones`): read the report.",
        "hint": "## 4. Stuck? A hint, aimed at what the check failed",
        "right": "## 5. Fix it and run the cell again",
        "followup": "## 6. What an interviewer asks next",
        "spread": "## 7. Code over several cells\n\n`kata.check(\"gae\")` builds the file from the cell that defines "
                  "`compute_gae` and the cells it uses, says which, and refuses (with a sentence) when it cannot be sure "
                  "what ran.",
        "bug": "## 8. A bug drill\n\n`kata.bug(\"gae\")` hands you a plausible solution with one bug in a new cell under "
               "`%%kata gae --drill`: find it, fix it, run the cell.",
        "stats": "## 9. Where you stand\n\nYour history lives in `kata.home()`; on Colab, "
                 "`kata.home(\"/content/drive/MyDrive/kata\")` keeps it on a mounted Drive.",
    },
    "zh": {
        "title": "# 在 notebook 里练 kata\n\n练习 ML / LLM 面试要求凭记忆手写的代码（手撕代码），由和 `kata` 命令同一个检查器判定："
                 "先跑有名字的边界用例，再跑随机用例，报告指出你的代码错在哪里。",
        "install": "## 1. 安装\n\n每个环境运行一次（Colab 上每个运行时一次）。之后 `import kata` 几乎不花时间，也不打印任何东西。",
        "lang": "kata.lang(\"zh\")  # 练习模板、报告、提示和追问都用中文",
        "start": "## 2. 开始一道题\n\n`kata.start(\"gae\")` 说明要写什么，并把练习模板放进下面一个以 `%%kata gae` 开头的新单元格"
                 "（notebook 不能新建单元格时，会把模板打印出来供复制）。",
        "wrong": "## 3. 写代码，运行单元格\n\n以 `%%kata gae` 开头的单元格照常运行，同时保存为 `kata.home()` 下的文件"
                 "（终端里的 `kata check gae` 也能看到它），并被检查。这第一次尝试忘了回合结束（`dones`）：读一读报告。",
        "hint": "## 4. 卡住了？提示会针对检查失败的地方",
        "right": "## 5. 修好它，再运行一次",
        "followup": "## 6. 面试官接下来会问什么",
        "spread": "## 7. 代码分散在几个单元格里\n\n`kata.check(\"gae\")` 用定义 `compute_gae` 的单元格和它用到的单元格拼出文件，"
                  "说明用了哪些；无法确定运行的是什么代码时，它会用一句话拒绝，而不是猜。",
        "bug": "## 8. 找 bug 练习\n\n`kata.bug(\"gae\")` 在一个以 `%%kata gae --drill` 开头的新单元格里给你一份看似合理、"
               "藏着一个 bug 的答案：找到它，修好，运行单元格。",
        "stats": "## 9. 你的进度\n\n记录保存在 `kata.home()`；在 Colab 上，`kata.home(\"/content/drive/MyDrive/kata\")` "
                 "把它放在挂载的 Google Drive 上。",
    },
}


def cells(lang: str) -> list[tuple[str, str]]:
    t = TEXT[lang]
    out = [("markdown", t["title"]), ("markdown", t["install"]), ("code", INSTALL), ("code", "import kata")]
    if t["lang"]:
        out.append(("code", t["lang"]))
    out += [("markdown", t["start"]), ("code", 'kata.start("gae")'),
            ("markdown", t["wrong"]), ("code", WRONG),
            ("markdown", t["hint"]), ("code", 'kata.hint("gae")'),
            ("markdown", t["right"]), ("code", RIGHT),
            ("markdown", t["followup"]), ("code", 'kata.followup("gae")'),
            ("markdown", t["spread"]), ("code", SPREAD), ("code", SPREAD_ENTRY), ("code", 'kata.check("gae")'),
            ("markdown", t["bug"]), ("code", 'kata.bug("gae")'),
            ("markdown", t["stats"]), ("code", "kata.stats()")]
    return out


def notebook(lang: str) -> dict:
    def cell(kind: str, source: str, n: int) -> dict:
        lines = source.splitlines(keepends=True)
        base = {"cell_type": kind, "id": f"{lang}-{n:02d}", "metadata": {}, "source": lines}
        return base if kind == "markdown" else {**base, "execution_count": None, "outputs": []}

    return {"cells": [cell(kind, source, n) for n, (kind, source) in enumerate(cells(lang))],
            "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                         "language_info": {"name": "python"}},
            "nbformat": 4, "nbformat_minor": 5}


def written(lang: str) -> str:
    return json.dumps(notebook(lang), ensure_ascii=False, indent=1) + "\n"


def path(lang: str) -> Path:
    return HERE / ("kata.ipynb" if lang == "en" else f"kata.{lang}.ipynb")


if __name__ == "__main__":
    for lang in TEXT:
        path(lang).write_text(written(lang), encoding="utf-8")
