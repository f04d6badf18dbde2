#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read the console log of a KUnit boot, print one line per suite, case
and parameter, and check the results against an expectation file.

Usage: ktap.py LOG EXPECT [--label TEXT]

EXPECT has one "pass NAME" or "fail NAME" line per result that must be
there, NAME being suite[.case[.param]].  Blank lines and # comments are
ignored.  Exit status: 0 when every expected result is present and as
expected and nothing unexpected failed; 1 otherwise; 2 on bad usage.
A log without any KTAP (a boot that never reached the tests) fails.
"""
import re
import sys

# Console lines may carry a printk time stamp, and kunit.py's raw output
# may not; either way the KTAP text follows.
STAMP = re.compile(r'^\[\s*\d+\.\d+\]\s?')
RESULT = re.compile(r'^(ok|not ok) \d+(?: -)? ?(.*?)(?: # (SKIP|TODO).*)?$')
SUBTEST = re.compile(r'^# Subtest: (.*)$')


def parse(lines):
    """Return ([(name, status)], saw_ktap) in output order.

    status is 'pass', 'fail' or 'skip'.  Nesting comes from indentation:
    "# Subtest: X" at indent d names the node whose children are printed
    at indent d; a result at indent d belongs to that node.
    """
    open_at = {}
    results = []
    saw_ktap = False
    for raw in lines:
        line = STAMP.sub('', raw.rstrip('\r\n'))
        body = line.lstrip(' ')
        indent = len(line) - len(body)
        if body.startswith('KTAP version') or body.startswith('TAP version'):
            saw_ktap = True
            continue
        m = SUBTEST.match(body)
        if m:
            open_at[indent] = m.group(1).strip()
            for d in [k for k in open_at if k > indent]:
                del open_at[d]
            continue
        m = RESULT.match(body)
        if not m or not saw_ktap:
            continue
        name = m.group(2).strip()
        path = [open_at[d] for d in sorted(open_at) if 0 < d <= indent]
        if indent == 0:
            path = []
        status = 'pass' if m.group(1) == 'ok' else 'fail'
        if m.group(3) == 'SKIP':
            status = 'skip'
        results.append(('.'.join(path + [name]), status))
        # The node at this indent is finished.
        for d in [k for k in open_at if k > indent]:
            del open_at[d]
    return results, saw_ktap


def read_expect(path):
    want = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            status, _, name = line.partition(' ')
            if status not in ('pass', 'fail') or not name:
                sys.exit('%s:%d: expected "pass NAME" or "fail NAME"' % (path, n))
            want[name.strip()] = status
    return want


def main(argv):
    args = list(argv[1:])
    label = ''
    if '--label' in args:
        i = args.index('--label')
        label = args[i + 1]
        del args[i:i + 2]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(args[0], errors='replace') as f:
        results, saw_ktap = parse(f)
    want = read_expect(args[1])

    got = {}
    for name, status in results:
        got[name] = status
    bad = 0
    for name, status in results:
        exp = want.get(name)
        if exp is None:
            verdict = 'UNEXPECTED' if status == 'fail' else 'ok'
        elif exp == status:
            verdict = 'ok'
        else:
            verdict = 'WRONG (expected %s)' % exp
        if verdict != 'ok':
            bad += 1
        line = '%s %-4s %-62s %s' % (label, status.upper(), name,
                                     '' if verdict == 'ok' else verdict)
        print(line.rstrip())
    missing = [n for n in want if n not in got]
    for name in missing:
        print('%s MISSING %s (expected %s)' % (label, name, want[name]))
    if not saw_ktap:
        print('%s no KTAP output: the kernel never reached the tests' % label)
    npass = sum(1 for _, s in results if s == 'pass')
    nfail = sum(1 for _, s in results if s == 'fail')
    nskip = sum(1 for _, s in results if s == 'skip')
    ok = saw_ktap and not missing and bad == 0
    print('%s %d results: %d pass, %d fail, %d skip; %d missing, %d not as expected: %s'
          % (label, len(results), npass, nfail, nskip, len(missing), bad,
             'OK' if ok else 'FAILED'))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
