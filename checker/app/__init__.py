"""The practice app: what a learner does with a check — start, check, watch, hints, drills, interviews, history.

`commands` does what the commands do without the command line (cli.py is the command line), `checking` runs a
check through the judge and records it, `views` draws the light commands, `watch` re-checks on every save,
`drills` and `drilling` are the bug drills, `bug_interview` and `practice` the timed interviews and progress,
`demo` shows a check on a known mistake, `state` is the history (SQLite under KATA_HOME), `prefork` starts the
judge's worker before the command line is read, and `render/` turns a CheckResult into the report.

The app reaches the judge only through `checker.judge`'s surface (a Request in, a CheckResult out, plus the
catalog); the import-linter contracts in pyproject.toml hold it to that.
"""
