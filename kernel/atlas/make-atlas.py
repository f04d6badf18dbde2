#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the atlas of a Linux source tree: one row per call site of the
hash.h functions, the hashtable.h macros that hash and the GOLDEN_RATIO_*
constants, with the key, the bits, the table, and whether a given .config
builds the site (y, m, n, h for a header, ? when an #if cannot be decided).

usage: make-atlas.py SRC CONFIG OUT [--census FILE] [--source TEXT]... [--patch P]...
       make-atlas.py SRC CONFIG --check CENSUS [--patch P]...
The format and the method are in kernel/atlas/README.md.
"""
import argparse
import hashlib
import lzma
import os
import re
import sys

FORMAT = 'khash-atlas 1'
COLUMNS = ['file', 'line', 'function', 'called', 'key', 'bits', 'table',
           'size', 'build', 'reason', 'subsystem', 'expanded', 'census']

# name -> (index of the key argument, of the bits argument, of the table)
CALLS = {
    'hash_32': (0, 1, None), 'hash_64': (0, 1, None),
    'hash_long': (0, 1, None), 'hash_ptr': (0, 1, None),
    'hash_min': (0, 1, None), '__hash_32': (0, None, None),
    'hash32_ptr': (0, None, None),
    'hash_add': (2, None, 0), 'hash_add_rcu': (2, None, 0),
    'hash_for_each_possible': (3, None, 0),
    'hash_for_each_possible_rcu': (3, None, 0),
    'hash_for_each_possible_rcu_notrace': (3, None, 0),
    'hash_for_each_possible_safe': (4, None, 0),
}
GOLDEN = ('GOLDEN_RATIO_32', 'GOLDEN_RATIO_64', 'GOLDEN_RATIO_PRIME')
NAME_RE = re.compile(r'\b(' + '|'.join(sorted(CALLS, key=len, reverse=True)
                                       + list(GOLDEN)) + r')\b')
QUICK = ('hash_32', 'hash_64', 'hash_long', 'hash_ptr', 'hash32_ptr',
         'hash_min', 'hash_add', 'hash_for_each_possible', 'GOLDEN_RATIO')
# Where the functions and macros are defined rather than used.
DEFINITION_FILES = re.compile(
    r'^(include/linux/hash\.h|include/linux/hashtable\.h|'
    r'arch/[^/]+/include/asm/hash\.h)$')
# Not kernel code: userspace copies of the headers, docs, build scripts.
SKIP_DIRS = ('tools', 'Documentation', 'scripts', 'usr', '.git')
ORDER = {'n': 0, 'm': 1, 'y': 2}


# ---------------------------------------------------------------- config

def read_config(path):
    """CONFIG_X -> 'y', 'm', a number or a string; unset ones are absent."""
    cfg = {}
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            m = re.match(r'(CONFIG_\w+)=(.*)', line.strip())
            if m:
                v = m.group(2)
                cfg[m.group(1)] = v[1:-1] if v.startswith('"') else v
    return cfg


def arch_macros(cfg):
    """The compiler's and the arch's own macros (name -> value, None for
    known to be undefined), so #ifs on them need not be '?'."""
    b64 = cfg.get('CONFIG_64BIT') == 'y'
    macros = {'__KERNEL__': 1, '__GNUC__': 12, '__LITTLE_ENDIAN': 1234,
              '__LITTLE_ENDIAN_BITFIELD': 1, '__BIG_ENDIAN': None,
              '__BIG_ENDIAN_BITFIELD': None, '__ASSEMBLY__': None,
              '__CHECKER__': None, '__GENKSYMS__': None, '__clang__': None,
              'BITS_PER_LONG': 64 if b64 else 32,
              '__BITS_PER_LONG': 64 if b64 else 32,
              '__x86_64__': 1 if b64 else None,
              '__i386__': None if b64 else 1,
              'false': 0, 'true': 1}
    return macros


# ---------------------------------------------------------------- C text

def strip_c(text):
    """The text with comments and the insides of string and character
    literals blanked, newlines kept, so offsets and lines stay put."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '/' and i + 1 < n and text[i + 1] == '*':
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if out[k] != '\n':
                    out[k] = ' '
            i = j
        elif c == '/' and i + 1 < n and text[i + 1] == '/':
            j = text.find('\n', i)
            j = n if j < 0 else j
            # a // comment continues past a backslash-newline
            while j < n and text[j - 1] == '\\':
                j2 = text.find('\n', j + 1)
                j = n if j2 < 0 else j2
            for k in range(i, j):
                if out[k] != '\n':
                    out[k] = ' '
            i = j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            for k in range(i + 1, min(j, n)):
                if out[k] != '\n':
                    out[k] = ' '
            i = j + 1
        else:
            i += 1
    return ''.join(out)


def logical_lines(lines):
    """(first line index, last line index, text) of each logical line,
    backslash-newlines joined."""
    i, n = 0, len(lines)
    while i < n:
        j, text = i, lines[i]
        while text.rstrip().endswith('\\') and j + 1 < n:
            j += 1
            text = text.rstrip()[:-1] + ' ' + lines[j]
        yield i, j, text
        i = j + 1


class Preproc:
    """Per line: the #if conditions around it, whether it is a directive,
    the #define whose body it is in, and the file's plain #defines."""

    def __init__(self, lines):
        n = len(lines)
        self.conds = [()] * n
        self.directive = [False] * n
        self.define_of = [None] * n
        self.kind = [None] * n          # if, else or endif, on its line
        # name -> [(the #if conditions around it, body)], object-like ones
        self.defines = {}
        stack = []   # per level: [conditions so far negated, current, else?]
        for i, j, text in logical_lines(lines):
            m = re.match(r'\s*#\s*(\w+)\s*(.*)', text)
            snap = tuple(c for lvl in stack for c in lvl[0] + [lvl[1]])
            if not m:
                for k in range(i, j + 1):
                    self.conds[k] = snap
                continue
            d, rest = m.group(1), m.group(2).strip()
            self.kind[i] = {'if': 'if', 'ifdef': 'if', 'ifndef': 'if',
                            'elif': 'else', 'else': 'else',
                            'endif': 'endif'}.get(d)
            if d in ('if', 'ifdef', 'ifndef'):
                if d == 'ifdef':
                    rest = 'defined(%s)' % rest.split()[0] if rest else '?'
                elif d == 'ifndef':
                    rest = '!defined(%s)' % rest.split()[0] if rest else '?'
                stack.append([[], rest, False])
            elif d == 'elif' and stack:
                lvl = stack[-1]
                lvl[0].append('!(%s)' % lvl[1])
                lvl[1], lvl[2] = rest, True
            elif d == 'else' and stack:
                lvl = stack[-1]
                lvl[0].append('!(%s)' % lvl[1])
                lvl[1], lvl[2] = '1', True
            elif d == 'endif' and stack:
                stack.pop()
            elif d == 'define':
                dm = re.match(r'(\w+)(\(?)\s*(.*)', rest)
                if dm:
                    name = dm.group(1)
                    for k in range(i, j + 1):
                        self.define_of[k] = name
                    if stack and stack[-1][1] == '!defined(%s)' % name:
                        # an include guard or a default: true inside
                        stack[-1][1] = '1'
                        snap = snap[:-1] + ('1',)
                    if not dm.group(2):
                        self.defines.setdefault(name, []).append(
                            (snap, dm.group(3).strip()))
            snap = tuple(c for lvl in stack for c in lvl[0] + [lvl[1]])
            for k in range(i, j + 1):
                self.directive[k] = True
                self.conds[k] = snap


# ------------------------------------------------------- #if expressions

class Unknown(Exception):
    pass


TOKEN_RE = re.compile(r'\s*(0[xX][0-9a-fA-F]+|\d+|\w+|&&|\|\||==|!=|<=|>=|'
                      r'<<|>>|[-+*/%()!<>&|^~?:,])')


class CondEval:
    """Three-valued evaluation of an #if expression against a .config:
    a number, or None when it depends on something not known."""

    def __init__(self, cfg, macros, defines, module, elsewhere=None):
        self.cfg, self.macros, self.defines = cfg, macros, defines
        self.module = module
        # names some header or -D could define; any other is undefined
        self.elsewhere = elsewhere

    def value(self, expr):
        toks = [t for t in TOKEN_RE.findall(expr)]
        toks = [re.sub(r'(?<=\d)[uUlL]+$', '', t) for t in toks]
        self.toks, self.pos = toks, 0
        try:
            v = self.ternary()
            if self.pos != len(self.toks):
                return None
            return v
        except (Unknown, IndexError, ZeroDivisionError, RecursionError):
            return None

    def peek(self):
        return self.toks[self.pos] if self.pos < len(self.toks) else None

    def take(self, want=None):
        t = self.peek()
        if t is None or (want is not None and t != want):
            raise Unknown()
        self.pos += 1
        return t

    def ternary(self):
        c = self.binary(0)
        if self.peek() == '?':
            self.take()
            a = self.ternary()
            self.take(':')
            b = self.ternary()
            if c is None:
                return a if a == b else None
            return a if c else b
        return c

    LEVELS = [['||'], ['&&'], ['|'], ['^'], ['&'], ['==', '!='],
              ['<', '>', '<=', '>='], ['<<', '>>'], ['+', '-'],
              ['*', '/', '%']]

    def binary(self, lvl):
        if lvl == len(self.LEVELS):
            return self.unary()
        a = self.binary(lvl + 1)
        while self.peek() in self.LEVELS[lvl]:
            op = self.take()
            b = self.binary(lvl + 1)
            a = self.apply(op, a, b)
        return a

    @staticmethod
    def apply(op, a, b):
        if op == '||':
            if a or b:
                return 1
            return None if a is None or b is None else 0
        if op == '&&':
            if a == 0 or b == 0:
                return 0
            return None if a is None or b is None else 1
        if a is None or b is None:
            return None
        return int({'|': lambda: a | b, '^': lambda: a ^ b,
                    '&': lambda: a & b, '==': lambda: a == b,
                    '!=': lambda: a != b, '<': lambda: a < b,
                    '>': lambda: a > b, '<=': lambda: a <= b,
                    '>=': lambda: a >= b, '<<': lambda: a << b,
                    '>>': lambda: a >> b, '+': lambda: a + b,
                    '-': lambda: a - b, '*': lambda: a * b,
                    '/': lambda: a // b, '%': lambda: a % b}[op]())

    def unary(self):
        t = self.take()
        if t == '!':
            v = self.unary()
            return None if v is None else int(not v)
        if t == '-':
            v = self.unary()
            return None if v is None else -v
        if t == '~':
            v = self.unary()
            return None if v is None else ~v
        if t == '(':
            v = self.ternary()
            self.take(')')
            return v
        if t[0].isdigit():
            return int(t, 0) if not t.startswith('0') or t == '0' or \
                t[1] in 'xX' else int(t, 8)
        if t == 'defined':
            paren = self.peek() == '('
            if paren:
                self.take()
            name = self.take()
            if paren:
                self.take(')')
            return self.is_defined(name)
        if t in ('IS_ENABLED', 'IS_BUILTIN', 'IS_MODULE', 'IS_REACHABLE'):
            self.take('(')
            name = self.take()
            self.take(')')
            v = self.cfg.get(name)
            if t == 'IS_BUILTIN':
                return int(v == 'y')
            if t == 'IS_MODULE':
                return int(v == 'm')
            if t == 'IS_ENABLED':
                return int(v in ('y', 'm'))
            if v == 'm':  # IS_REACHABLE: a module reaches a module
                return None if self.module is None else int(self.module)
            return int(v == 'y')
        if self.peek() == '(':   # a function-like macro we do not know
            raise Unknown()
        return self.ident(t)

    def is_defined(self, name):
        if name.startswith('CONFIG_'):
            if name.endswith('_MODULE') and \
                    self.cfg.get(name[:-7]) == 'm':
                return 1
            v = self.cfg.get(name)
            return int(v is not None and v != 'm')
        if name == 'MODULE':
            return None if self.module is None else int(self.module)
        if name in self.macros:
            return int(self.macros[name] is not None)
        v = self.local(name, lambda body: 1)
        if v is None and self.nowhere(name):
            return 0
        return v

    def nowhere(self, name):
        return self.elsewhere is not None and name not in self.elsewhere \
            and name not in self.defines

    def local(self, name, then):
        """then(body) of the file's own #define of name whose #ifs hold;
        None (unknown) when none is known to hold: it may come from a
        header."""
        for conds, body in self.defines.get(name, ()):
            vals = [self.value_of(c) for c in conds]
            if all(v for v in vals):
                return then(body)
        return None

    def value_of(self, expr):
        sub = CondEval(self.cfg, self.macros, self.defines, self.module,
                       self.elsewhere)
        sub.depth = getattr(self, 'depth', 0) + 1
        sub.strict = getattr(self, 'strict', False)
        if sub.depth > 8:
            return None
        return sub.value(expr)

    def ident(self, name):
        if name.startswith('CONFIG_') and name not in self.cfg and \
                name in self.defines:   # a file's default for an unset one
            v = self.local(name, lambda body: self.value_of(body or '1'))
            if v is not None:
                return v
        if name.startswith('CONFIG_'):
            v = self.cfg.get(name)
            if (v is None or v == 'm') and getattr(self, 'strict', False):
                raise Unknown()
            if v is None or v == 'm':
                return 0     # undefined in autoconf.h: cpp reads 0
            if v == 'y':
                return 1
            try:
                return int(v, 0)
            except ValueError:
                raise Unknown()
        if name in self.macros:
            v = self.macros[name]
            return 0 if v is None else v
        v = self.local(name, lambda body: self.value_of(body or '1'))
        if v is None and self.nowhere(name):
            return 0
        if v is None:
            raise Unknown()
        return v


# ------------------------------------------------------------- kbuild

def min_level(a, b):
    return a if ORDER[a] <= ORDER[b] else b


class Makefile:
    """The assignments of one kbuild Makefile, with the level ('y' or 'n'
    and a reason) of the ifdef/ifeq blocks around each."""

    def __init__(self, path, rel, cfg, arch, src, depth=0, conds=True):
        self.assigns = []   # (base, suffix, raw lhs, values, cond, reason)
        self.dflags = set()  # names given to the compiler by -D
        self.src = src
        self.vars = {'srctree': src, 'src': rel, 'obj': rel,
                     'SRCARCH': arch, 'ARCH': arch,
                     'BITS': '64' if cfg.get('CONFIG_64BIT') == 'y' else '32'}
        self.cfg, self.rel, self.conds = cfg, rel, conds
        self.name = os.path.basename(path) if path else 'Makefile'
        self.parse(path, depth)

    def expand(self, s):
        for _ in range(20):
            m = re.search(r'\$[({]([^(){}$]*)[)}]', s)
            if not m:
                m = re.search(r'\$(\w)', s)
                if not m:
                    break
            s = s[:m.start()] + self.call(m.group(1)) + s[m.end():]
        return s

    def call(self, inner):
        fm = re.match(r'(\w+)\s+(.*)', inner, re.S)
        if fm and fm.group(1) in ('subst', 'addprefix', 'addsuffix',
                                  'patsubst', 'if', 'strip', 'sort',
                                  'filter', 'filter-out'):
            fn, args = fm.group(1), [a for a in fm.group(2).split(',')]
            words = (args[-1] if args else '').split()
            if fn == 'subst' and len(args) == 3:
                return args[2].replace(args[0], args[1])
            if fn == 'addprefix' and len(args) == 2:
                return ' '.join(args[0].strip() + w for w in words)
            if fn == 'addsuffix' and len(args) == 2:
                return ' '.join(w + args[0].strip() for w in words)
            if fn == 'patsubst' and len(args) == 3:
                pat, rep = args[0].strip(), args[1].strip()
                rx = '^' + re.escape(pat).replace('%', '(.*)') + '$'
                return ' '.join(re.sub(rx, rep.replace('%', r'\1'), w)
                                for w in words)
            if fn == 'if':
                if args[0].strip():
                    return args[1] if len(args) > 1 else ''
                return args[2] if len(args) > 2 else ''
            if fn in ('strip', 'sort'):
                return ' '.join(sorted(set(args[0].split()))
                                if fn == 'sort' else args[0].split())
            if fn in ('filter', 'filter-out') and len(args) == 2:
                pats = args[0].split()
                keep = [w for w in words if (w in pats) == (fn == 'filter')]
                return ' '.join(keep)
            return ''
        name = inner.strip()
        if name.startswith('CONFIG_'):
            return self.cfg.get(name, '')
        return self.vars.get(name, '')

    def parse(self, path, depth):
        try:
            with open(path, encoding='utf-8', errors='replace') as f:
                lines = f.read().split('\n')
        except OSError:
            return
        stack = []   # (active, reason)
        for _i, _j, text in logical_lines(lines):
            text = re.sub(r'(?<!\\)#.*', '', text).strip()
            if not text:
                continue
            m = re.match(r'(ifdef|ifndef|ifeq|ifneq|else|endif)\b\s*(.*)',
                         text)
            if m:
                self.conditional(stack, m.group(1), m.group(2))
                continue
            active = all(a for a, _ in stack) or not self.conds
            reason = next((r for a, r in stack if not a), '')
            self.dflags.update(re.findall(r'-D\s*(\w+)', text))
            if re.match(r'-?include\s', text):
                inc = self.expand(text.split(None, 1)[1]).strip()
                for p in inc.split():
                    # $(src) is relative to the top: try there first
                    for q in (os.path.join(self.src, p),
                              os.path.join(os.path.dirname(path), p)):
                        if depth < 3 and active and os.path.isfile(q):
                            self.parse(q, depth + 1)
                            break
                continue
            m = re.match(r'([^\s:+?=]+)\s*(:=|\+=|\?=|=)\s*(.*)', text)
            if not m:
                continue
            raw, op, rhs = m.group(1), m.group(2), m.group(3)
            lhs = self.expand(raw)
            val = self.expand(rhs)
            if active:
                if op == '+=':
                    self.vars[lhs] = (self.vars.get(lhs, '') + ' ' + val)
                elif op != '?=' or lhs not in self.vars:
                    self.vars[lhs] = val
            bm = re.match(r'(.+)-([^-]*)$', lhs)
            if bm:
                self.assigns.append((bm.group(1), bm.group(2), raw,
                                     val.split(), active, reason))

    def conditional(self, stack, kw, arg):
        if kw == 'endif':
            if stack:
                stack.pop()
            return
        if kw == 'else':
            if stack:
                a, r = stack.pop()
                sub = re.match(r'(ifdef|ifndef|ifeq|ifneq)\b\s*(.*)', arg)
                stack.append((not a, 'else of ' + r))
                if sub:  # "else ifeq ..." shares the endif: fold it in
                    was = stack.pop()
                    self.conditional(stack, sub.group(1), sub.group(2))
                    a2, r2 = stack.pop()
                    stack.append((was[0] and a2, r2))
            return
        name = arg.strip()
        if kw in ('ifdef', 'ifndef'):
            v = self.cfg.get(name) if name.startswith('CONFIG_') \
                else self.vars.get(name)
            on = bool(v) and v != 'n'
            stack.append((on if kw == 'ifdef' else not on,
                          '%s %s' % (kw, name)))
            return
        am = re.match(r'\(\s*(.*?)\s*,\s*(.*?)\s*\)$', arg) or \
            re.match(r'["\'](.*?)["\']\s+["\'](.*?)["\']$', arg)
        if not am:   # cannot read it: take the block as active
            stack.append((True, '%s %s' % (kw, arg)))
            return
        eq = self.expand(am.group(1)).strip() == \
            self.expand(am.group(2)).strip()
        stack.append((eq if kw == 'ifeq' else not eq,
                      '%s %s' % (kw, arg)))


class Kbuild:
    """y/m/n and a reason for every object kbuild reaches from the top."""

    def __init__(self, src, cfg, arch='x86'):
        self.src, self.cfg, self.arch = os.path.abspath(src), cfg, arch
        self.files = {}      # rel path of .c/.S -> (level, reason)
        self.modules = {}    # rel path of .c/.S -> names of its modules
        self.walked = {}     # rel dir -> best level walked with
        self.dflags = set()
        self.cache = {}
        self.top()

    def makefile(self, rel):
        if rel not in self.cache:
            base = os.path.join(self.src, rel)
            path = None
            for name in ('Kbuild', 'Makefile'):
                if os.path.isfile(os.path.join(base, name)):
                    path = os.path.join(base, name)
                    break
            self.cache[rel] = Makefile(path, rel, self.cfg, self.arch,
                                       self.src) if path else None
            if path:
                self.dflags |= self.cache[rel].dflags
        return self.cache[rel]

    def level_of(self, suffix, raw, base):
        """The level an assignment's suffix gives, and why when 'n'."""
        if suffix in ('y', 'objs'):
            return 'y', ''
        if suffix == 'm':
            return 'm', ''
        configs = re.findall(r'CONFIG_\w+', raw)
        why = ' '.join('%s=%s' % (c, self.cfg.get(c, 'n')) for c in configs)
        return 'n', why or ('%s-%s' % (base, suffix))

    def top(self):
        # The top Kbuild lists the tree's directories (6.1 and later); the
        # arch Makefile adds its own through core-/drivers-/libs-.
        mk = self.makefile('')
        entries = []
        if mk:
            entries += [a for a in mk.assigns if a[0] == 'obj']
        for mk_path, depth in ((os.path.join(self.src, 'Makefile'), 3),
                               (os.path.join(self.src, 'arch', self.arch,
                                             'Makefile'), 0)):
            if os.path.isfile(mk_path):
                # the top Makefile's ifs are about how make was called
                amk = Makefile(mk_path, '', self.cfg, self.arch, self.src,
                               depth, conds=depth == 0)
                entries += [a for a in amk.assigns
                            if a[0] in ('core', 'drivers', 'libs')]
        self.entries('', mk, entries, 'y', '')

    def entries(self, rel, mk, entries, level, reason):
        for base, suffix, raw, values, active, cond in entries:
            lvl, why = self.level_of(suffix, raw, base)
            if not active:
                lvl, why = 'n', 'Makefile %s' % cond
            eff = min_level(level, lvl)
            r = self.why(eff, level, reason, why, rel)
            for v in values:
                if v.endswith('/'):
                    self.walk(os.path.normpath(os.path.join(rel, v)),
                              eff, r)
                elif v.endswith('.o'):
                    # an object a line makes m is a module of its name
                    # (kbuild's KBUILD_MODNAME writes - as _)
                    mod = v[:-2].replace('-', '_') if lvl == 'm' else None
                    self.obj(rel, mk, v[:-2], eff, r, 0, mod)

    def why(self, eff, level, reason, why, rel):
        """Why an object is 'n': the parent's reason if it was 'n' already,
        else this Makefile's."""
        if eff != 'n':
            return ''
        if level == 'n':
            return reason
        mk = self.cache.get(rel)
        return '%s in %s' % (why, os.path.join(rel, mk.name if mk else
                                                'Makefile'))

    def walk(self, rel, level, reason):
        if rel.startswith('..') or ORDER[level] <= ORDER.get(
                self.walked.get(rel, ('', ''))[0], -1):
            return
        self.walked[rel] = (level, reason)
        mk = self.makefile(rel)
        if mk is None:
            return
        ents = [a for a in mk.assigns if a[0] in ('obj', 'lib')]
        self.entries(rel, mk, ents, level, reason)

    def obj(self, rel, mk, stem, level, reason, depth, module=None):
        parts = [a for a in mk.assigns if a[0] == stem and
                 a[1] not in ('ccflags', 'cflags', 'asflags', 'ldflags')] \
            if mk and depth < 4 else []
        if parts:
            for base, suffix, raw, values, active, cond in parts:
                lvl, why = self.level_of(suffix, raw, base)
                if suffix == 'm':    # only a modular composite takes -m
                    lvl = 'm' if level == 'm' else 'n'
                    why = '%s-m in a built-in object' % base
                if not active:
                    lvl, why = 'n', 'Makefile %s' % cond
                eff = min_level(level, lvl)
                r = self.why(eff, level, reason, why, rel)
                for v in values:
                    if v.endswith('.o') and v[:-2] != stem:
                        self.obj(rel, mk, v[:-2], eff, r, depth + 1,
                                 module)
            return
        for ext in ('.c', '.S'):
            path = os.path.normpath(os.path.join(rel, stem + ext))
            old = self.files.get(path)
            if old is None or ORDER[level] > ORDER[old[0]]:
                self.files[path] = (level, reason if level == 'n' else '')
            if level == 'm' and module:
                self.modules.setdefault(path, set()).add(module)

    def status(self, path):
        """(level, reason) of a .c file; None when no rule names it."""
        return self.files.get(path)

    def dir_reason(self, path):
        d, below = os.path.dirname(path), None
        while d:
            if d in self.walked:
                lvl, r = self.walked[d]
                if lvl == 'n':
                    return r
                if below is None:
                    return 'no kbuild rule for it in %s' % d
                return '%s/ is in no kbuild list for %s' % (below, self.arch)
            d, below = os.path.dirname(d), d
        if path.startswith('arch/'):
            return 'arch %s is not built' % path.split('/')[1]
        return '%s/ is in no kbuild list for %s' % (below, self.arch)


# ---------------------------------------------------------- the scanner

def split_args(text, start):
    """The top-level arguments of the call whose '(' is at text[start],
    and the offset after its ')'."""
    depth, args, cur, i = 0, [], start + 1, start
    while i < len(text):
        c = text[i]
        if c in '([{':
            depth += 1
        elif c in ')]}':
            depth -= 1
            if depth == 0:
                args.append(text[cur:i])
                return [' '.join(a.replace('\\\n', ' ').split())
                        for a in args], i + 1
        elif c == ',' and depth == 1:
            args.append(text[cur:i])
            cur = i + 1
        i += 1
    return None, len(text)


def functions(lines, pp):
    """Per line, the C function whose body holds it ('' outside), by a
    brace count that skips directive lines. Each #else branch starts from
    the depth its #if started at, and after #endif the count goes on from
    the end of the first branch: so an if-head written twice under
    #ifdef/#else counts once, and a function in an #else branch is seen."""
    owner = [''] * len(lines)
    depth, pending, current = 0, [], ''
    saved = []   # per open #if: [depth at #if, depth after first branch]
    for i, line in enumerate(lines):
        owner[i] = current if depth else ''
        kind = pp.kind[i]
        if kind == 'if':
            saved.append([depth, None])
        elif kind == 'else' and saved:
            if saved[-1][1] is None:
                saved[-1][1] = depth
            depth = saved[-1][0]
        elif kind == 'endif' and saved:
            first = saved.pop()[1]
            depth = depth if first is None else first
        if pp.directive[i]:
            continue
        for c in line:
            if depth == 0:
                if c == '{':
                    current = function_name(''.join(pending))
                    pending, depth = [], 1
                    owner[i] = current   # a body opened (and maybe closed)
                elif c in ';}':
                    pending = []
                else:
                    pending.append(c)
            elif c == '{':
                depth += 1
            elif c == '}':
                depth -= 1
        if depth:
            owner[i] = current
        else:
            pending.append(' ')
    return owner


ATTRIBUTES = ('__attribute__', '__printf', '__scanf', '__aligned',
              '__section', '__must_hold', '__acquires', '__releases',
              '__diag_ignore', '__no_sanitize_address', '__alloc_size')


def function_name(head):
    """The name a function definition's head declares, '' if it is none
    (a struct, an initializer, an enum)."""
    head = ' '.join(head.split())
    if not head.endswith(')') and not re.search(r'\)[\s\w]*$', head):
        return ''
    for m in re.finditer(r'(\w+)\s*\(', head):
        name = m.group(1)
        if name in ATTRIBUTES:
            continue
        if name in ('if', 'for', 'while', 'switch', 'sizeof', 'do'):
            return ''
        if re.search(r'=\s*$', head[:m.start()]):
            return ''
        args, _ = split_args(head, head.index('(', m.start()))
        if name.isupper() and args and re.fullmatch(r'\w+', args[0]):
            # SYSCALL_DEFINE3(name, ...) and kin
            return '%s(%s)' % (name, args[0])
        return name
    return ''


def macro_uses(clean, lines, pp, name, depth):
    """The lines of the file where macro name is expanded, through the
    file's other macros that use it."""
    out = set()
    for m in re.finditer(r'\b%s\s*\(' % re.escape(name), clean):
        k = clean.count('\n', 0, m.start())
        outer = pp.define_of[k]
        if outer == name:
            continue
        if outer and depth < 4:
            out.update(macro_uses(clean, lines, pp, outer, depth + 1))
        elif not pp.directive[k]:
            out.add(k)
    return sorted(out)


def const_value(expr, ev):
    if not expr:
        return None
    v = ev.value(expr)
    return v if isinstance(v, int) else None


def table_before(text, start):
    """The array a call indexes when written inside its brackets:
    'tbl[hash(...)]' or 'tbl + hash(...)'."""
    i = start - 1
    while i >= 0 and text[i] in ' \t\n(':
        i -= 1
    if i < 0:
        return ''
    if text[i] == '[':
        return postfix_before(text, i)
    if text[i] == '+':   # tbl + hash(...), only as a whole right side
        expr = postfix_before(text, i)
        lead = text[:i].rstrip()[:-len(expr)].rstrip() if expr else ''
        if expr and (lead.endswith('=') or lead.endswith('return')):
            return expr
    return ''


def postfix_before(text, end):
    """The postfix expression (a.b->c[d]) that ends just before end."""
    i, depth = end - 1, 0
    while i >= 0 and text[i] in ' \t':
        i -= 1
    j = i
    while i >= 0:
        c = text[i]
        if c in ')]':
            depth += 1
        elif c in '([':
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and not (c.isalnum() or c in '_.->*&'):
            break
        i -= 1
    expr = text[i + 1:j + 1].strip().lstrip('&*')
    if expr.startswith('->') or not re.match(r'[A-Za-z_]', expr):
        return ''
    return ' '.join(expr.split())


class Scanner:
    def __init__(self, src, cfg, kbuild, macros):
        self.src, self.cfg, self.kb, self.macros = src, cfg, kbuild, macros
        self.texts = {}
        self.defs = {}
        self.global_names = self.header_names() | kbuild.dflags

    def files(self):
        for root, dirs, names in os.walk(self.src):
            rel = os.path.relpath(root, self.src)
            if rel == '.':
                dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
                rel = ''
            dirs.sort()
            for name in sorted(names):
                if name.endswith(('.c', '.h')):
                    yield os.path.join(rel, name)

    def header_names(self):
        """Every macro name the shared headers #define (for x86 also the
        arch's): a name outside these, the file's own headers and -D flags
        is undefined wherever it is tested."""
        names = set()
        rx = re.compile(r'^\s*#\s*define\s+(\w+)', re.M)
        for top in ('include', os.path.join('arch', self.kb.arch,
                                            'include')):
            for root, _dirs, files in os.walk(os.path.join(self.src, top)):
                for name in files:
                    if name.endswith('.h'):
                        with open(os.path.join(root, name), encoding='utf-8',
                                  errors='replace') as f:
                            names.update(rx.findall(f.read()))
        return names

    def scan(self):
        rows = []
        for rel in self.files():
            if DEFINITION_FILES.match(rel):
                continue
            with open(os.path.join(self.src, rel), encoding='utf-8',
                      errors='replace') as f:
                text = f.read()
            # plain substring tests first: the regex over every file is slow
            if not any(w in text for w in QUICK) or not NAME_RE.search(text):
                continue
            rows += self.scan_file(rel, text)
        return rows

    def scan_file(self, rel, text):
        clean = strip_c(text)
        lines = clean.split('\n')
        pp = Preproc(lines)
        owner = functions(lines, pp)
        starts = [0]
        for line in lines:
            starts.append(starts[-1] + len(line) + 1)
        level, reason = self.file_build(rel)
        module = None if level == 'h' else (level == 'm')
        # not a column: --check compares module sites module by module
        modules = self.file_modules(rel) if level == 'm' else set()
        # the headers beside the file: their names for the #ifs, their
        # plain values for a table's size
        beside, values = set(), {}
        for name, defs in self.dir_defines(os.path.dirname(rel)):
            if name != os.path.basename(rel):
                beside.update(defs[0])
                for k, v in defs[1].items():
                    values.setdefault(k, []).extend(v)
        ev = CondEval(self.cfg, self.macros, pp.defines, module,
                      self.global_names | beside)
        values.update(pp.defines)
        # enum constants given a value (workqueue's hash orders are such)
        for em in re.finditer(r'\benum\s*\w*\s*\{([^{}]*)\}', clean):
            for item in em.group(1).split(','):
                im = re.match(r'\s*(\w+)\s*=\s*(.+?)\s*$', item, re.S)
                if im:
                    values.setdefault(im.group(1), []).append(
                        ((), ' '.join(im.group(2).split())))
        # in C expressions an unknown name is a variable, not a 0, and an
        # unset CONFIG_ value gives no size
        size_ev = CondEval(self.cfg, self.macros, values, module)
        size_ev.strict = True
        rows = []
        for m in NAME_RE.finditer(clean):
            name = m.group(1)
            lineno = clean.count('\n', 0, m.start())
            if not self.is_use(clean, m, lines, pp, lineno):
                continue
            row = self.site(rel, clean, m, lineno, lines, pp, owner,
                            size_ev)
            if row is None:
                continue
            row['build'], row['reason'] = self.site_build(
                level, reason, pp.conds[lineno], ev)
            row['modules'] = modules
            rows.append(row)
        return rows

    def is_use(self, clean, m, lines, pp, lineno):
        name = m.group(1)
        if pp.define_of[lineno] == name:
            return False     # the name's own #define
        before = clean[max(0, m.start() - 2):m.start()]
        if before.endswith('.') or before == '->':
            return False     # a struct member of that name
        if name in GOLDEN:
            return True
        after = clean[m.end():m.end() + 200].lstrip()
        if not after.startswith('('):
            return False     # not called: a variable, a field, a label
        # A prototype or definition: a type word right before the name.
        prev = clean[max(0, m.start() - 80):m.start()]
        if pp.directive[lineno] and not pp.define_of[lineno]:
            return False
        pm = re.search(r'(\w+)[\s*]*$', prev)
        if pm and pm.group(1) in ('int', 'long', 'u32', 'u64', 'void',
                                  'unsigned', 'inline', 'u16', 'u8',
                                  'bool', 'static', '__always_inline'):
            return False
        return True

    def site(self, rel, clean, m, lineno, lines, pp, owner, ev):
        name = m.group(1)
        func = owner[lineno]
        if pp.define_of[lineno]:
            func = '#define ' + pp.define_of[lineno]
        row = {'file': rel, 'line': lineno + 1, 'function': func,
               'called': name, 'key': '', 'bits': '', 'table': '',
               'size': '', 'subsystem': rel.split('/')[0], 'census': '',
               'expanded': '', 'elsewhere': []}
        if pp.define_of[lineno]:
            row['expanded'] = ','.join(
                str(k + 1) for k in macro_uses(clean, lines, pp,
                                               pp.define_of[lineno], 0))
            row['elsewhere'] = self.uses_elsewhere(rel, pp.define_of[lineno])
        if name in GOLDEN:
            self.golden(row, clean, m)
        else:
            args, _ = split_args(clean, clean.index('(', m.end()))
            if args is None:
                return None
            ki, bi, ti = CALLS[name]
            row['key'] = args[ki] if ki < len(args) else ''
            if bi is not None and bi < len(args):
                row['bits'] = args[bi]
            if ti is not None:
                row['table'] = args[ti]
                row['bits'] = 'HASH_BITS(%s)' % args[ti]
            else:
                row['table'] = table_before(clean, m.start()) or \
                    self.table_after(clean, m, lineno, lines, owner)
        row['size'] = self.size(rel, clean, row, pp, ev)
        return row

    def golden(self, row, clean, m):
        # x * GOLDEN_RATIO_n or GOLDEN_RATIO_n * x, and a >> shift after
        after = clean[m.end():m.end() + 120]
        before = clean[max(0, m.start() - 120):m.start()]
        am = re.match(r'\s*\*\s*(\(?[\w.\->()\[\] ]*?\)?)\s*(?:[;,)]|>>)',
                      after)
        bm = re.search(r'([\w.\->\[\]]+|\([^()]*\))\s*\*\s*$', before)
        cm = re.search(r'([\w.\->\[\]]+)\s*\*=\s*$', before)
        if cm:   # y *= GOLDEN_RATIO_n
            row['key'] = cm.group(1)
        elif bm:
            row['key'] = ' '.join(bm.group(1).split())
        elif am:
            row['key'] = ' '.join(am.group(1).split())
        else:   # no product: the expression it stands in, as written
            start = max(clean.rfind(c, 0, m.start()) for c in ';{}=') + 1
            end = min([p for p in (clean.find(';', m.end()),
                                   clean.find('\n\n', m.end())) if p >= 0]
                      or [len(clean)])
            row['key'] = ' '.join(clean[start:end].split())[:160]
        sm = re.match(r'[^;]*?>>\s*\(\s*(32|64)\s*-\s*([^()]+?)\s*\)',
                      after)
        if sm:
            row['bits'] = ' '.join(sm.group(2).split())

    def table_after(self, clean, m, lineno, lines, owner):
        """v = hash(...); ... tbl[v]: the array its result indexes a few
        lines on; return hash(...) in f(): tbl[f(...)] in the file."""
        line = lines[lineno]
        col = m.start() - (clean.rfind('\n', 0, m.start()) + 1)
        head = line[:col]
        am = re.search(r'(\w+)\s*=\s*[(\w\s)]*$', head)
        if am:
            var = am.group(1)
            rx = re.compile(r'([\w.\->]+)\s*\[\s*%s\s*\]' % re.escape(var))
            for k in range(lineno, min(len(lines), lineno + 15)):
                if owner[k] != owner[lineno]:
                    break
                tm = rx.search(lines[k])
                if tm:
                    return tm.group(1).lstrip('&*')
        if re.search(r'\breturn\b[\s(\w)]*$', head) and owner[lineno]:
            f = owner[lineno]
            tm = re.search(r'([\w.\->]+(?:\[[^\]]*\])?)\s*\[\s*%s\s*\(' %
                           re.escape(f), clean)
            if tm:
                return tm.group(1).lstrip('&*')
        return ''

    def size(self, rel, clean, row, pp, ev):
        table = row['table']
        if table:
            last = re.findall(r'\w+', table.split('[')[0])
            last = last[-1] if last else ''
            for text in self.decl_texts(rel, clean):
                dm = re.search(r'\b(?:DEFINE|DECLARE)_(?:READ_MOSTLY_)?'
                               r'HASHTABLE\s*\(\s*%s\s*,\s*([^)]+)\)'
                               % re.escape(last), text)
                if dm:
                    v = const_value(dm.group(1), ev)
                    if v is not None and 0 <= v < 64:
                        return str(1 << v)
                am = re.search(r'\b(?:struct\s+\w+|\w+)[\s*]+%s\s*\[\s*'
                               r'([^\]]+)\]\s*[;=,]' % re.escape(last), text)
                if am:
                    v = const_value(am.group(1), ev)
                    if v is not None:
                        return str(v)
        if row['bits'] and not row['bits'].startswith('HASH_BITS'):
            v = const_value(row['bits'], ev)
            if v is not None and 0 <= v < 64:
                return str(1 << v)
        return ''

    def decl_texts(self, rel, clean):
        """The file, then the headers beside it, where a table may be
        declared."""
        yield clean
        for name, text in self.dir_texts(os.path.dirname(rel), '.h'):
            if name != os.path.basename(rel):
                yield text

    def dir_defines(self, d):
        """Per header beside a file: (every name it #defines, its
        object-like #defines with the #ifs around them)."""
        if d not in self.defs:
            out = []
            for name, text in self.dir_texts(d, '.h'):
                pp = Preproc(text.split('\n'))
                names = set(re.findall(r'^\s*#\s*define\s+(\w+)', text, re.M))
                out.append((name, (names, pp.defines)))
            self.defs[d] = out
        return self.defs[d]

    def dir_texts(self, d, ext):
        """(name, text without comments) of a directory's files ending in
        ext, read once."""
        key = (d, ext)
        if key not in self.texts:
            out = []
            full = os.path.join(self.src, d)
            names = sorted(os.listdir(full)) if os.path.isdir(full) else []
            for name in names:
                if name.endswith(ext):
                    try:
                        with open(os.path.join(full, name), encoding='utf-8',
                                  errors='replace') as f:
                            out.append((name, strip_c(f.read())
                                        if ext == '.h' else f.read()))
                    except OSError:
                        pass
            self.texts[key] = out
        return self.texts[key]

    def file_build(self, rel):
        """The kbuild level of a file: its rule's, or for a header or an
        #included .c the best of its includers beside it; 'h' for a shared
        header."""
        st = self.kb.status(rel)
        if st is not None and not rel.endswith('.h'):
            return st
        if rel.startswith('include/') or re.match(r'arch/[^/]+/include/',
                                                  rel):
            return 'h', 'a shared header: built wherever included'
        best = None
        for inc, conds in self.includers_of(rel):
            s = self.kb.status(inc)
            if s and s[0] != 'n':
                ev = CondEval(self.cfg, self.macros, conds[1], s[0] == 'm',
                              self.global_names)
                vals = [ev.value(c) for c in conds[0]]
                if any(v == 0 for v in vals):   # #included under a false #if
                    s = ('n', '#include under #if %s in %s' % (
                        ' && '.join(c for c, v in zip(conds[0], vals)
                                    if v == 0), inc))
            if s and (best is None or ORDER[s[0]] > ORDER[best[0][0]]):
                best = (s, inc)
        if best:
            lvl, why = best[0]
            return lvl, ('included by %s' % best[1]) + \
                ((': ' + why) if why else '')
        if rel.endswith('.h'):
            return 'h', 'a header no .c beside it includes'
        return 'n', self.kb.dir_reason(rel)

    def uses_elsewhere(self, rel, name):
        """file:line of the uses of a macro of a header beside its .c
        files in those that include it: not a column (expanded has the
        header's own lines), but where the census sees the site."""
        if not rel.endswith('.h') or rel.startswith('include/'):
            return []
        out = []
        for inc, _ in self.includers_of(rel):
            with open(os.path.join(self.src, inc), encoding='utf-8',
                      errors='replace') as f:
                clean = strip_c(f.read())
            lines = clean.split('\n')
            out += ['%s:%d' % (inc, k + 1) for k in
                    macro_uses(clean, lines, Preproc(lines), name, 0)]
        return out

    def file_modules(self, rel):
        """The modules a file is built into: its rule's, or for a header or
        an #included .c those of its includers beside it."""
        if rel in self.kb.modules:
            return self.kb.modules[rel]
        out = set()
        for inc, _ in self.includers_of(rel):
            out |= self.kb.modules.get(inc, set())
        return out

    def includers_of(self, rel):
        """The .c files in the header's directory and its parent that
        #include it by a quoted name, each with the #if conditions around
        its #include and its #defines."""
        base = os.path.basename(rel)
        d = os.path.dirname(rel)
        out = []
        rx = re.compile(r'#\s*include\s*"([^"]*/)?%s"' % re.escape(base))
        for dd in (d, os.path.dirname(d)):
            for name, text in self.dir_texts(dd, '.c'):
                p = os.path.join(dd, name)
                im = rx.search(text) if p != rel else None
                if im:
                    lines = strip_c(text).split('\n')
                    pp = Preproc(lines)
                    k = text.count('\n', 0, im.start())
                    out.append((p, (pp.conds[k], pp.defines)))
        return out

    def site_build(self, level, reason, conds, ev):
        if level == 'n':
            return 'n', reason
        unknown = []
        for c in conds:
            v = ev.value(c)
            if v == 0:
                return 'n', '#if %s' % ' '.join(c.split())
            if v is None:
                unknown.append(' '.join(c.split()))
        if unknown:
            return '?', '#if ' + ' && '.join(unknown)
        return level, reason if level == 'h' or \
            reason.startswith('included by') else ''


# ------------------------------------------------------------ census

class Census:
    """The sites of a census file by file:line (of SRC, through the
    patches): 'reached' or 'compiled' for every site (seen), for the
    kernel's own (kernel) and for the modules' (module), the modules of
    each module site (mods) and the bits the reached sites ran with."""

    def __init__(self, path, patches=()):
        self.seen, self.kernel, self.module = {}, {}, {}
        self.mods, self.bits = {}, {}
        self.version, self.unmapped = 1, 0
        maps = [read_patch(p) for p in patches]
        opener = lzma.open if path.endswith('.xz') else open
        with opener(path, 'rt', encoding='utf-8') as f:
            for line in f:
                self.read(line.strip(), maps)

    def read(self, line, maps):
        if line.startswith('khash-census '):
            self.version = int(line.split()[1])
            return
        m = re.match(r'site \d+ (\S+) (\d+) \d+ (\S+:\d+)( [\w-]+)?$', line)
        status = 'reached'
        if not m:
            m = re.match(r'# site \d+ not called: (\S+) ()(\S+:\d+)'
                         r'( [\w-]+)?$', line)
            status = 'compiled'
        if not m:
            return
        k = back_through(maps, m.group(3))
        if k is None:
            self.unmapped += 1
            return
        mod = (m.group(4) or '').strip()
        for d in [self.seen, self.module if mod else self.kernel]:
            if d.get(k) != 'reached':
                d[k] = status
        if mod:
            self.mods.setdefault(k, set()).add(mod)
        if status == 'reached' and m.group(1) in CALLS:
            self.bits.setdefault(k, set()).add(int(m.group(2)))

    def get(self, k):
        return self.seen.get(k)

    def loaded(self):
        return set().union(*self.mods.values()) if self.mods else set()


def read_patch(path):
    """file -> the hunks of a unified diff, each (old start, new start,
    its lines' first characters)."""
    hunks, name, left = {}, None, [0, 0]
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            if line.startswith('\\'):   # "no newline at end of file"
                continue
            if left[0] > 0 or left[1] > 0:   # inside a hunk
                c = line[:1] if line[:1] in '+-' else ' '
                left[0] -= c != '+'
                left[1] -= c != '-'
                hunks[name][-1][2].append(c)
                continue
            m = re.match(r'\+\+\+ (?:b/)?(\S+)', line)
            if m:
                name = m.group(1)
                hunks.setdefault(name, [])
                continue
            m = re.match(r'@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@', line)
            if m and name:
                left = [int(m.group(2) or 1), int(m.group(4) or 1)]
                hunks[name].append((int(m.group(1)), int(m.group(3)), []))
    return hunks


def back_through(maps, key):
    """file:line of the patched tree -> file:line before the patches
    (applied in the order given); None for a line a patch added."""
    f, _, line = key.rpartition(':')
    n = int(line)
    for hunks in reversed(maps):
        delta, found = 0, None
        for old, new, cs in hunks.get(f, []):
            if n < new:
                break
            for c in cs:
                if new == n and c != '-':
                    found = old if c == ' ' else 0
                    break
                old += c != '+'
                new += c != '-'
            if found is not None:
                break
            delta = old - new
        if found == 0:
            return None
        n = found if found is not None else n + delta
    return '%s:%d' % (f, n)


def mark_census(rows, census):
    """reached, compiled or not-compiled; a site in a macro's body by the
    lines where the macro is used, which is where the census saw it."""
    for r in rows:
        seen = {census.get(k) for k in row_keys(r)}
        r['census'] = 'reached' if 'reached' in seen else \
            'compiled' if 'compiled' in seen else 'not-compiled'


def row_keys(r):
    """The file:line where the census sees a row's site: a site in a
    macro's body where the macro is used, else its own line."""
    uses = ['%s:%s' % (r['file'], x) for x in r['expanded'].split(',') if x]
    return uses + r['elsewhere'] or ['%s:%s' % (r['file'], r['line'])]


def check(rows, census):
    """Compare the sites the atlas builds in with the ones the census
    kernel compiled, its modules with the census's modules (version 2),
    and the sizes the atlas gives with the bits the census saw; print the
    figures and each miss."""
    built, every = {}, {}
    for r in rows:
        for k in row_keys(r):
            every.setdefault(k, []).append(r)
            if r['build'] in ('y', 'h'):
                built.setdefault(k, []).append(r)
    y_sites = {k for k, v in built.items() if any(r['build'] == 'y'
                                                  for r in v)}
    h_sites = set(built) - y_sites
    cset = set(census.kernel)
    print('census sites (file:line): %d, of which reached %d' %
          (len(cset), sum(1 for v in census.kernel.values()
                          if v == 'reached')))
    print('atlas file:line built in (y): %d, in headers (h): %d' %
          (len(y_sites), len(h_sites)))
    print('match (atlas y, census compiled): %d' % len(y_sites & cset))
    print('match (atlas h, census compiled): %d' % len(h_sites & cset))
    miss_a = sorted(cset - set(built), key=sortkey)
    print('census compiled, atlas does not say y/h: %d' % len(miss_a))
    print_rows(miss_a, every)
    miss_b = sorted(y_sites - cset, key=sortkey)
    print('atlas y, census did not compile: %d' % len(miss_b))
    for k in miss_b:
        print('  %s %s' % (k, ' '.join(sorted({r['called']
                                                for r in built[k]}))))
    if census.version >= 2:
        check_modules(every, h_sites, census)
    if census.unmapped:
        print('census sites on lines the patches added: %d'
              % census.unmapped)
    # 2^bits of each reached site with bits against the atlas's size
    agree, differ, nosize = 0, [], []
    for k in sorted(census.bits, key=sortkey):
        sizes = {r['size'] for r in every.get(k, [])}
        want = {str(1 << b) for b in census.bits[k] if b}
        if not want:
            continue
        if sizes & want:
            agree += 1
        elif sizes - {''}:
            differ.append(k)
        else:
            nosize.append(k)
    print('reached sites with bits: size agrees %d, differs %d, no size %d'
          % (agree, len(differ), len(nosize)))
    for k in differ:
        print('  differs: %s' % k)


def print_rows(keys, every):
    for k in keys:
        rs = every.get(k)
        print('  %s %s' % (k, '; '.join('%s %s %s' % (
            r['called'], r['build'], r['reason']) for r in rs)
            if rs else 'no atlas row'))


def check_modules(every, h_sites, census):
    """A module's sites are in a census only when it was loaded: the
    census's module sites against the atlas's m of the modules it loaded;
    the m of the others on a line of their own, not as misses."""
    loaded = census.loaded()
    mod_of = {}     # file:line -> modules of its m rows
    for k, rs in every.items():
        for r in rs:
            if r['build'] == 'm':
                mod_of.setdefault(k, set()).update(r['modules'] or {'?'})
    print('modules the census loaded (with sites): %d' % len(loaded))
    mset = set(census.module)
    print('census module sites (file:line): %d, of which reached %d' %
          (len(mset), sum(1 for v in census.module.values()
                          if v == 'reached')))
    in_loaded = {k for k, v in mod_of.items() if v & loaded}
    print('atlas file:line m in those modules: %d' % len(in_loaded))
    match_m = {k for k in mset if mod_of.get(k, set()) & census.mods[k]}
    print('match (atlas m of the module, census compiled): %d'
          % len(match_m))
    match_h = (mset - match_m) & h_sites
    print('match (atlas h, census module compiled): %d' % len(match_h))
    miss_a = sorted(mset - match_m - match_h, key=sortkey)
    print('census module compiled, atlas does not say m of it/h: %d'
          % len(miss_a))
    print_rows(miss_a, every)
    miss_b = sorted(in_loaded - mset, key=sortkey)
    print('atlas m of a loaded module, census did not compile: %d'
          % len(miss_b))
    for k in miss_b:
        print('  %s %s' % (k, ' '.join(sorted(mod_of[k] & loaded))))
    other = {k for k, v in mod_of.items() if not v & loaded}
    names = set().union(*(mod_of[k] for k in other)) if other else set()
    print('atlas file:line m of modules the census did not load: %d, '
          'in %d modules%s' % (len(other), len(names), ''.join(
              (' ' if i else ': ') + n for i, n in enumerate(sorted(names)))))


def sortkey(k):
    f, _, line = k.rpartition(':')
    return f, int(line)


# ------------------------------------------------------------- output

def clean_cell(v):
    return ' '.join(str(v).split())


def kernel_version(src):
    """VERSION.PATCHLEVEL.SUBLEVEL of the tree's top Makefile: khash-bench
    census refuses to match an atlas with a census of another kernel."""
    v = {}
    with open(os.path.join(src, 'Makefile'), encoding='utf-8') as f:
        for line in f:
            m = re.match(r'(VERSION|PATCHLEVEL|SUBLEVEL)\s*=\s*(\d+)\s*$', line)
            if m:
                v.setdefault(m.group(1), m.group(2))
            if len(v) == 3:
                return '%s.%s.%s' % (v['VERSION'], v['PATCHLEVEL'], v['SUBLEVEL'])
    sys.exit('make-atlas.py: %s/Makefile: no VERSION, PATCHLEVEL and SUBLEVEL'
             % src)


def write(rows, out, header):
    tmp = out + '.tmp'
    with open(tmp, 'w', encoding='utf-8', newline='\n') as f:
        f.write('# %s\n' % FORMAT)
        for h in header:
            f.write('# %s\n' % h)
        f.write('\t'.join(COLUMNS) + '\n')
        for r in rows:
            f.write('\t'.join(clean_cell(r[c]) for c in COLUMNS) + '\n')
    os.replace(tmp, out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('src')
    ap.add_argument('config')
    ap.add_argument('out', nargs='?')
    ap.add_argument('--census', help='fill the census column from FILE')
    ap.add_argument('--check', metavar='CENSUS',
                    help='compare with the sites CENSUS compiled')
    ap.add_argument('--source', action='append', default=[],
                    help='a line for the header saying what was scanned')
    ap.add_argument('--patch', action='append', default=[],
                    help='a patch of the census kernel, in the order '
                    'applied: the census lines are mapped back through it')
    ap.add_argument('--arch', default='x86')
    a = ap.parse_args()
    if not a.out and not a.check:
        ap.error('an output path or --check is needed')
    cfg = read_config(a.config)
    kb = Kbuild(a.src, cfg, a.arch)
    rows = Scanner(a.src, cfg, kb, arch_macros(cfg)).scan()
    rows.sort(key=lambda r: (r['file'], r['line'], r['called']))
    census = Census(a.census or a.check, a.patch) \
        if (a.census or a.check) else None
    if a.census:
        mark_census(rows, census)
    if a.check:
        check(rows, census)
    if a.out:
        with open(a.config, 'rb') as f:
            digest = hashlib.sha256(f.read()).hexdigest()[:12]
        header = ['kernel %s' % kernel_version(a.src)] + a.source + ['config %s (sha256 %s), arch %s' % (
            os.path.basename(a.config), digest, a.arch)]
        if a.census:
            header.append('census %s' % os.path.basename(a.census))
        write(rows, a.out, header)
    return 0


if __name__ == '__main__':
    sys.exit(main())
