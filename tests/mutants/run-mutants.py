#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Plant each bug of tests/mutants/mutants.txt in a scratch copy of the tree,
one at a time, rebuild incrementally, run the tests that can see it, and
count it killed when they fail.  A survivor, or a mutant whose text is not
found exactly once or that no longer compiles, fails the run.

Usage: run-mutants.py [--only NAME[,NAME]] [--list] [--jobs N]
Scratch tree and build: $LKH_MUTANT_ROOT (default ~/.cache/libkhash/mutants),
and one more under it (workerN/) for each job past the first.
Ends with "N killed, N survived".
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import threading
import time

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ROOT = os.environ.get("LKH_MUTANT_ROOT",
                      os.path.join(os.path.expanduser("~"), ".cache", "libkhash", "mutants"))

# The kernel series builds beside this harness in tests/run-all.sh: a test
# slowed down by it must not time out and count as a kill it never made.
STRETCH = ["--timeout-multiplier", os.environ.get("TIMEOUT_MULTIPLIER", "3")]


def parse(path):
    """Blocks: '== name', then 'file:', 'find:', 'replace:', 'tests:',
    'breaks:' lines; a value may continue on lines that start with '|'
    (joined with a newline), so a find can span lines."""
    mutants, cur, key = [], None, None
    with open(path, encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if line.startswith("#") or (not line.strip() and key is None):
                continue
            if line.startswith("== "):
                cur = {"name": line[3:].strip(), "line": lineno}
                mutants.append(cur)
                key = None
                continue
            if cur is None:
                sys.exit(f"{path}:{lineno}: text before the first '== name'")
            if line.startswith("|"):
                if key is None:
                    sys.exit(f"{path}:{lineno}: a continuation with nothing to continue")
                cur[key] += "\n" + line[1:]
                continue
            if not line.strip():
                key = None
                continue
            k, sep, v = line.partition(": ")
            if not sep or k not in ("file", "find", "replace", "tests", "breaks"):
                sys.exit(f"{path}:{lineno}: expected 'file|find|replace|tests|breaks: value'")
            cur[k] = v
            key = k
    for m in mutants:
        for k in ("file", "find", "replace", "tests", "breaks"):
            if k not in m:
                sys.exit(f"{path}:{m['line']}: mutant {m['name']} has no '{k}:'")
    return mutants


def run(cmd, cwd, log, timeout=600, env=None):
    with open(log, "w") as out:
        try:
            return subprocess.run(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                                  timeout=timeout, env=env).returncode
        except subprocess.TimeoutExpired:
            return 124


def test_outputs(build):
    """Map each test's name to the files ninja must build for it, so a
    mutant rebuilds only what its tests run, not the whole tree."""
    def introspect(what):
        out = subprocess.run(["meson", "introspect", what, build], check=True,
                             capture_output=True).stdout
        return json.loads(out)
    files = {t["id"]: t["filename"] for t in introspect("--targets")}
    needs = {}
    for t in introspect("--tests"):
        needs[t["name"]] = sorted({os.path.relpath(f, build)
                                   for dep in t["depends"] for f in files.get(dep, [])})
    return needs


def copy_tree(src_root):
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=TOP,
                           check=True, capture_output=True).stdout.decode().split("\0")
    keep = set()
    for rel in files:
        # everything, the census data too (advise's and explain's tests
        # read the kernfs site from them)
        if not rel or not os.path.isfile(os.path.join(TOP, rel)):
            continue
        dst = os.path.join(src_root, rel)
        keep.add(rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        s = os.path.join(TOP, rel)
        # copy only what changed, so the build stays incremental; the copy
        # is stamped now, not with the source's time, which can be older
        # than objects another checkout built in the same scratch tree
        if not os.path.exists(dst) or open(s, "rb").read() != open(dst, "rb").read():
            shutil.copy(s, dst)
    # a file the tree no longer has goes too: globs (the README layout
    # check, the kernel series) would still find it in the scratch copy
    for d, _, names in os.walk(src_root, topdown=False):
        for name in names:
            rel = os.path.relpath(os.path.join(d, name), src_root)
            if rel not in keep:
                os.remove(os.path.join(d, name))
        if d != src_root and not os.listdir(d):
            os.rmdir(d)
    return keep


class Worker:
    """A scratch copy of the tree and its build: the planted bugs one worker
    takes are planted and rebuilt there, one at a time."""

    def __init__(self, root):
        self.src, self.build = os.path.join(root, "src"), os.path.join(root, "build")
        self.log = os.path.join(root, "log.txt")
        self.needs = {}

    def prepare(self, baseline):
        """Copy and build the unmutated tree (and test it, when baseline):
        None, or why it cannot take planted bugs."""
        os.makedirs(self.src, exist_ok=True)
        copy_tree(self.src)
        if not os.path.exists(os.path.join(self.build, "build.ninja")):
            if run(["meson", "setup", self.build, self.src], TOP, self.log) != 0:
                return open(self.log).read()[-3000:] + "\nmutants: meson setup failed"
        # Unmutated, the tree must pass the tests that kill the mutants, or
        # every mutant counts as killed.
        if run(["ninja", "-C", self.build], TOP, self.log) != 0 or (baseline and run(
                ["meson", "test", "-C", self.build, "--no-rebuild"] + STRETCH, TOP,
                self.log) != 0):
            return (open(self.log).read()[-3000:]
                    + "\nmutants: the unmutated tree does not build and pass its tests")
        self.needs = test_outputs(self.build)
        return None

    def plant(self, m):
        """Plant one bug, run its tests, restore the file: (verdict, line)
        with verdict killed, survived or invalid."""
        tests = m["tests"].split()
        unknown = [t for t in tests if t not in self.needs]
        if unknown:
            return "invalid", f"INVALID {m['name']}: no test named {' '.join(unknown)}"
        targets = sorted({f for t in tests for f in self.needs[t]})
        path = os.path.join(self.src, m["file"])
        original = open(path, encoding="utf-8").read()
        count = original.count(m["find"])
        if count != 1:
            return "invalid", f"INVALID {m['name']}: its text occurs {count} times in {m['file']}"
        t = time.time()
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(original.replace(m["find"], m["replace"]))
            if run(["ninja", "-C", self.build] + targets, TOP, self.log) != 0:
                return "invalid", f"INVALID {m['name']}: does not compile"
            # one failure kills the mutant: stop there (--maxfail and
            # LKH_FAIL_FAST, which tests/checks.sh obeys), not after every check
            rc = run(["meson", "test", "-C", self.build, "--no-rebuild", "--maxfail", "1"]
                     + STRETCH + tests, TOP, self.log,
                     env=dict(os.environ, LKH_FAIL_FAST="1"))
            took = time.time() - t
            if rc != 0:
                return "killed", f"killed   {m['name']:32} ({took:4.1f} s) {m['breaks']}"
            return "survived", (f"SURVIVED {m['name']:32} ({took:4.1f} s) {m['breaks']}: "
                                f"{' '.join(tests)} passed")
        finally:
            with open(path, "w", encoding="utf-8") as f:
                f.write(original)

    def finish(self):
        # leave the build matching the tree for the next run
        run(["ninja", "-C", self.build], TOP, self.log)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", help="comma-separated mutant names")
    ap.add_argument("--list", action="store_true", help="list the mutants and exit")
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("LKH_MUTANT_JOBS", "1")),
                    help="scratch trees planting at once (default $LKH_MUTANT_JOBS or 1)")
    args = ap.parse_args()
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    mutants = parse(os.path.join(TOP, "tests", "mutants", "mutants.txt"))
    names = [m["name"] for m in mutants]
    if len(set(names)) != len(names):
        sys.exit("two mutants share a name")
    if args.list:
        for m in mutants:
            print(f"{m['name']:32} {m['file']:28} {m['breaks']}")
        return 0
    if args.only:
        want = set(args.only.split(","))
        unknown = want - set(names)
        if unknown:
            sys.exit(f"unknown mutant(s): {', '.join(sorted(unknown))}")
        mutants = [m for m in mutants if m["name"] in want]

    t0 = time.time()
    # tests/run-all.sh has just run the unmutated suite in the same
    # configuration (LKH_NATIVE_SUITE_PASSED=1): then it is built here, not
    # tested again.  One worker's test of it is enough.
    baseline = os.environ.get("LKH_NATIVE_SUITE_PASSED") != "1"
    if not baseline:
        print("mutants: the unmutated suite passed in this run's gcc-auto, not run again")
    # The first worker's tree is ROOT's own, as it was before workers; each
    # other builds its own copy, and starts planting once it has.
    jobs = min(args.jobs, max(len(mutants), 1))
    workers = [Worker(ROOT if w == 0 else os.path.join(ROOT, f"worker{w}"))
               for w in range(jobs)]
    todo = list(reversed(mutants))
    lock = threading.Lock()
    tally = {"killed": 0, "survived": 0, "invalid": 0}
    failed = []

    def work(wk, w):
        why = wk.prepare(baseline and w == 0)
        if why:
            with lock:
                failed.append(why)
            return
        while True:
            with lock:
                if not todo or failed:
                    break
                m = todo.pop()
            verdict, line = wk.plant(m)
            with lock:
                tally[verdict] += 1
                print(line, flush=True)
        wk.finish()

    threads = [threading.Thread(target=work, args=(wk, w)) for w, wk in enumerate(workers)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    if failed:
        print(failed[0])
        sys.exit(1)
    print(f"mutants: {len(mutants)} in {time.time() - t0:.0f} s with {jobs} "
          f"worker{'s' if jobs > 1 else ''}"
          + (f", {tally['invalid']} invalid" if tally["invalid"] else ""))
    print(f"{tally['killed']} killed, {tally['survived'] + tally['invalid']} survived")
    return 0 if tally["survived"] == 0 and tally["invalid"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
