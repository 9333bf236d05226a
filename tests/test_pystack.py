"""The pystack model behind device_stack_bytes (host/board/pystack.py): frames read from the
.mpy mpy-cross writes, matched to the source's functions, and summed along the calls the
board's code really makes."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

from host.board import pystack

SOURCE = textwrap.dedent(
    """
    def shallow(a):
        return a

    def deep(a, b):
        x = a + b
        y = [i for i in range(x)]
        try:
            z = shallow(y)
        except ValueError:
            z = None
        return z

    def gen(n):
        yield n

    try:
        from threading import Lock
    except ImportError:
        pass
    else:
        def locked(a):
            return deep(a, a)
    """
)


def _frames(tmp_path: Path) -> dict[pystack.Key, pystack.RawCode]:
    source = tmp_path / "sample.py"
    source.write_text(SOURCE)
    return {line: code for (_, line), code in pystack.frames([source]).items()}


def test_a_frame_is_its_header_locals_stack_and_handlers_rounded_to_eight() -> None:
    # 5 header words + 3 state words = 32 bytes; one exception handler adds 3 words: 44 -> 48
    assert pystack.frame_bytes(3, 0) == 32
    assert pystack.frame_bytes(3, 1) == 48


def test_every_function_of_the_source_is_read_with_its_name(tmp_path: Path) -> None:
    found = _frames(tmp_path)
    assert {found[line].name for line in (2, 5, 14, 22)} == {"shallow", "deep", "gen", "locked"}
    assert found[5].n_exc_stack == 1 and found[2].n_exc_stack == 0
    assert found[5].n_state > found[2].n_state  # deep has more locals and a deeper stack
    assert len(found[5].children) == 1  # its list comprehension


def test_a_generator_and_host_only_code_take_no_board_stack(tmp_path: Path) -> None:
    found = _frames(tmp_path)
    assert found[14].bytes == 0  # a generator's state is in its heap object
    assert found[22].host_only and found[22].bytes == 0
    assert found[5].bytes > 0 and not found[5].host_only


def test_the_deepest_path_is_the_sum_of_the_frames_on_the_stack(tmp_path: Path) -> None:
    source = tmp_path / "chain.py"
    source.write_text("def leaf():\n    return 1\n\ndef mid():\n    return leaf()\n")
    code = pystack.frames([source])
    sys.path.insert(0, str(tmp_path))
    try:
        import chain  # type: ignore[import-not-found]

        deepest = pystack.Deepest(code, base=8)
        deepest.install()
        try:
            chain.mid()
        finally:
            deepest.remove()
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("chain", None)
    where = str(source)
    assert deepest.most == 8 + code[(where, 1)].bytes + code[(where, 4)].bytes
    assert [p.rsplit(":", 1)[1] for p in deepest.path] == ["mid", "leaf"]
