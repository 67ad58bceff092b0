"""What the operating system keeps from the learner's process and from every process it starts.

checker.judge.seal's audit hook lives inside the learner's Python: a process the learner's code starts
(`subprocess.run(["cat", "reference/gae.py"])`, `os.system`, a second Python) has none. Linux's Landlock
(5.13 and later, no privilege needed) restricts a process and everything it starts from then on, and
nothing below can lift it. Just before the learner's file runs (`restrict`), the child allows itself:

- reading and running everything outside kata's folder but a disk it may read whole (root may: the
  raw disk holds every file); inside kata's folder, only kata's own code but
  checker/specs/ (the child's lazy imports), a virtual environment kept there, and the learner's
  file (with its folder, when that folder is the learner's own, such as practice/). So not
  reference/, content/, checker/specs/, tests/, .git/, build/ nor anything else kept there;
- listing every folder (names are no answers; Python's importer lists the folders on sys.path);
- writing only the system's temporary folder (or the check's scratch folder), /dev (no disk, and no
  device made) and the learner's own folder, each only when neither kata's folder nor kata's home
  (its history) lies in it.

Landlock only grants, so "everything but reference/" is said by granting every other entry of each
folder on the way down to it (/, the folders down to kata's, checker/: a few dozen rules, worked out
in the parent; the child's part costs half a millisecond, one as root, whose /dev is granted entry
by entry to leave the disks out). Installed (kata's folder is then site-packages, torch's too), all
of it is granted but reference/, content/ and checker/specs/. Landlock also keeps the learner's
processes from tracing kata's or reading their memory (/proc/<pid>/mem).

The child's KATA_HOME points nowhere (a path under /dev/null: nothing can be made there), so kata
started by the learner's code cannot find its history. Where kata's home or folder lies in the system's
temporary folder (a test's home in /tmp), the temporary folder cannot be granted whole: the child's
TMPDIR is then a scratch folder of the check's own, which the parent removes with the check.

Where Landlock is missing (macOS, Windows, a Linux before 5.13 or with it turned off), `restrict` does
nothing and the audit hook is what holds: inside the learner's Python only.
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

from checker import places

ROOT = str(Path(__file__).resolve().parents[2])
CODE = os.path.join(ROOT, "checker")
SPECS = os.path.join(CODE, "specs")
CHECKOUT = os.path.exists(os.path.join(ROOT, "pyproject.toml"))  # a clone (else installed, in site-packages)
# kata's own folders: a learner's file inside one of them is let through alone, not with its folder
KATA_FOLDERS = tuple(os.path.join(ROOT, name) for name in (
    "checker", "reference", "content", "tests", "katas", "benchmarks", "build", "dist", ".git", ".ci"))

_SYS_CREATE_RULESET, _SYS_ADD_RULE, _SYS_RESTRICT_SELF = 444, 445, 446  # the same number on every architecture
_CREATE_RULESET_VERSION, _RULE_PATH_BENEATH, _PR_SET_NO_NEW_PRIVS = 1, 1, 38
EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
REFER, TRUNCATE = 1 << 13, 1 << 14  # Landlock ABI 2 and 3
MAKE_CHAR, MAKE_BLOCK = 1 << 6, 1 << 11  # handled, never granted: no device is the learner's to make
WRITE = (WRITE_FILE | sum(1 << bit for bit in range(4, 13)) | REFER | TRUNCATE) & ~(MAKE_CHAR | MAKE_BLOCK)  # remove, make…
READ = EXECUTE | READ_FILE | READ_DIR
FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE  # what a rule on a file (not a folder) may grant

_scratch: str | None = None  # this check's scratch folder, where it needs one (set in the parent before it forks)
_system_tmp: str | None = None  # the system's temporary folder
_libc: object = None  # the _Calls, once looked up; False where there are none


def scratch() -> str | None:
    """A scratch folder for the learner's children of one check, where they need one: Landlock lets them write the
    system's temporary folder unless kata's folder or kata's home lies in it (a test's home in /tmp); then their
    TMPDIR is a folder of their own, which the parent removes with the check. None where none is needed."""
    if abi() < 1:
        return None
    if not _holds(os.path.realpath(tempfile.gettempdir()), (ROOT, os.path.realpath(places.home()))):
        return None
    return os.path.realpath(tempfile.mkdtemp(prefix="kata-check-"))


def prepare(folder: str | None) -> None:
    """In the parent, before it forks a child: the scratch folder it will have (or None), and the rules worked out
    here, where they copy no pages in the child."""
    global _scratch, _system_tmp
    _scratch, _system_tmp = folder, os.path.realpath(tempfile.gettempdir())
    if abi() >= 1:
        _covering()


def remove(path: str | None) -> None:
    """Remove a check's scratch folder once its children are gone."""
    if path is not None:
        shutil.rmtree(path, ignore_errors=True)


def enter() -> None:
    """In the learner's child: its KATA_HOME is not kata's home (a process it starts, `kata` itself, would write kata's
    history there), and its temporary files go to the scratch folder where it has one."""
    if _scratch is not None and os.path.isdir(_scratch):
        os.environ["TMPDIR"] = tempfile.tempdir = _scratch
    os.environ["KATA_HOME"] = os.path.join(os.devnull, "kata-home")  # nothing can be made there


def abi() -> int:
    """The Landlock ABI this kernel offers (1 and up), or 0 where there is none."""
    calls = _calls()
    return calls.abi if calls is not None else 0


def restrict(learner: str, home: str) -> bool:
    """Restrict this process and all it starts (Landlock) to what the learner's code may touch: `learner`
    is its file, `home` kata's home. Whether Landlock now holds; nothing happens where it is missing."""
    calls = _calls()
    if calls is None or calls.abi < 1:
        return False
    return calls.restrict(plan(learner, home))


def plan(learner: str, home: str) -> list[tuple[str, int, bool]]:
    """The rules: (path, rights, whether it is a folder)."""
    learner, home = os.path.realpath(learner), os.path.realpath(home)
    rules = list(_covered[1] if _covered[0] else _covering())  # worked out in the parent, just before it forked
    folder = os.path.dirname(learner)
    rules.append((learner, READ_FILE, False))
    if _inside(folder, ROOT) and not _inside(folder, KATA_FOLDERS) and folder != ROOT:
        rules.append((folder, READ, True))  # practice/: the learner's modules beside the file
    for writable in {_scratch, _system_tmp, folder} - {None}:
        if not _holds(writable, (ROOT, home)) and not _inside(writable, KATA_FOLDERS + (home,)):
            rules.append((writable, READ | WRITE, True))
    rules += _devices  # /dev, but a disk this user may read whole (root's): its blocks hold the answers too
    return rules


_covered: tuple[tuple, list[tuple[str, int, bool]]] = ((), [])
_devices: list[tuple[str, int, bool]] = []


def _covering() -> list[tuple[str, int, bool]]:
    """The rules that do not depend on the learner: listing anything, reading all outside kata's folder, and kata's
    code but its specs, with a virtual environment kept in kata's folder. Kept while the folders on the way down
    to what is left out are unchanged (the parent works it out before it forks: the child finds it ready)."""
    global _covered, _devices
    try:
        key = tuple(os.stat(folder).st_mtime_ns for folder in ("/", "/dev", *_on_the_way(SPECS)))
    except OSError:
        key = ()
    if key and key == _covered[0]:
        return _covered[1]
    rules: list[tuple[str, int, bool]] = [("/", READ_DIR, True)]
    if CHECKOUT:
        _cover("/", {ROOT, "/dev"}, READ, rules)  # everything outside kata's folder (/dev: below)
        _cover(CODE, {SPECS}, READ, rules)  # kata's code, but its specs
    else:  # installed: kata's folder is site-packages, torch's too
        _cover("/", {os.path.join(ROOT, "reference"), os.path.join(ROOT, "content"), SPECS, "/dev"}, READ, rules)
    disks = _readable_disks()
    _devices = [("/dev", READ | WRITE, True)]
    if disks:
        _devices = []
        _cover("/dev", set(disks), READ | WRITE, _devices)
    for prefix in {os.path.realpath(p) for p in (sys.prefix, sys.exec_prefix)}:
        if _inside(prefix, ROOT) and not _inside(prefix, KATA_FOLDERS):  # a virtual environment in kata's folder
            rules.append((prefix, READ, True))
    _covered = (key, rules)
    return rules


def _readable_disks() -> list[str]:
    """The block devices in /dev (and its folders) this user may open (root may: the raw disk holds every file)."""
    import stat

    found = []
    for folder in ("/dev", *(p for p in _entries("/dev") if os.path.isdir(p) and not os.path.islink(p))):
        for path in _entries(folder):
            try:
                if stat.S_ISBLK(os.lstat(path).st_mode) and os.access(path, os.R_OK):
                    found.append(path)
            except OSError:
                pass
    return found


def _entries(folder: str) -> list[str]:
    try:
        return [os.path.join(folder, name) for name in os.listdir(folder)]
    except OSError:
        return []


def _on_the_way(path: str) -> list[str]:
    """The folders `path` is in, from its own to /."""
    folders = [os.path.dirname(path)]
    while folders[-1] != os.path.dirname(folders[-1]):
        folders.append(os.path.dirname(folders[-1]))
    return folders


def _cover(top: str, hidden: set[str], rights: int, rules: list[tuple[str, int, bool]]) -> None:
    """Grant `rights` on all of `top` but the paths in `hidden`: on each entry that holds none of them, and
    inside each that does, the same again. A symbolic link is left out (what it points to is granted, or not,
    where it lies)."""
    try:
        entries = list(os.scandir(top))
    except OSError:
        return
    for entry in entries:
        path = os.path.join(top, entry.name)
        if path in hidden:
            continue
        if any(h.startswith(path + os.sep) for h in hidden):
            _cover(path, hidden, rights, rules)
        elif not entry.is_symlink():
            rules.append((path, rights, entry.is_dir(follow_symlinks=False)))


def _inside(path: str, roots: str | tuple[str, ...]) -> bool:
    roots = (roots,) if isinstance(roots, str) else roots
    return any(path == root or path.startswith(root.rstrip(os.sep) + os.sep) for root in roots)


def _holds(folder: str, paths: tuple[str, ...]) -> bool:
    """Whether one of `paths` lies in `folder` (or is it)."""
    return any(_inside(path, folder) for path in paths)


class _Calls:
    """Landlock's system calls through ctypes, looked up once in the parent (looking a symbol up in a forked
    child that holds torch costs milliseconds: the pages it walks are copied)."""

    def __init__(self) -> None:
        import ctypes

        class RulesetAttr(ctypes.Structure):
            _fields_ = [("handled_access_fs", ctypes.c_uint64)]

        class PathBeneath(ctypes.Structure):
            _pack_ = 1
            _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]

        libc = ctypes.CDLL(None, use_errno=True)
        self.syscall, self.prctl, self.open, self.close = libc.syscall, libc.prctl, libc.open, libc.close
        self.syscall.restype = ctypes.c_long
        self.ctypes, self.RulesetAttr, self.PathBeneath = ctypes, RulesetAttr, PathBeneath
        self.long, self.ulong = ctypes.c_long, ctypes.c_ulong  # syscall(2) and prctl(2) are variadic: say the width
        version = self.syscall(self.long(_SYS_CREATE_RULESET), None, self.long(0), self.long(_CREATE_RULESET_VERSION))
        self.abi = max(int(version), 0)

    def restrict(self, rules: list[tuple[str, int, bool]]) -> bool:
        ctypes, long = self.ctypes, self.long
        handled = (1 << 13) - 1 | (REFER if self.abi >= 2 else 0) | (TRUNCATE if self.abi >= 3 else 0)
        attr = self.RulesetAttr(handled)
        ruleset = self.syscall(long(_SYS_CREATE_RULESET), ctypes.byref(attr), long(ctypes.sizeof(attr)), long(0))
        if ruleset < 0:
            return False
        try:
            flags = os.O_PATH | os.O_CLOEXEC | os.O_NOFOLLOW
            for path, rights, folder in rules:
                fd = self.open(os.fsencode(path), flags)  # libc's: the seal's audit hook need not look at each
                if fd < 0:
                    continue  # gone meanwhile
                rule = self.PathBeneath(rights & handled & (~0 if folder else FILE_RIGHTS), fd)
                self.syscall(long(_SYS_ADD_RULE), long(ruleset), long(_RULE_PATH_BENEATH), ctypes.byref(rule), long(0))
                self.close(fd)
            if self.prctl(_PR_SET_NO_NEW_PRIVS, self.ulong(1), self.ulong(0), self.ulong(0), self.ulong(0)) != 0:
                return False
            return self.syscall(long(_SYS_RESTRICT_SELF), long(ruleset), long(0)) == 0
        finally:
            os.close(ruleset)


def _calls() -> _Calls | None:
    global _libc
    if _libc is None:
        _libc = False
        if sys.platform.startswith("linux"):
            try:
                _libc = _Calls()
            except (OSError, AttributeError):
                _libc = False
    return _libc or None
