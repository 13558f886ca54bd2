"""`scripts/test`, the README's test command: which tests an argument selects."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def collected(*args: str) -> str:
    """The count of a `--collect-only` run of `scripts/test` with `args` ("1574/2168
    tests collected (594 deselected)", without its time)."""
    done = subprocess.run(
        ["bash", "scripts/test", *args, "--collect-only", "-q"],
        cwd=ROOT,
        env=os.environ | {"TEST_WORKERS": "0"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return done.stdout.strip().splitlines()[-1].rsplit(" in ", 1)[0]


@pytest.mark.slow  # the linter and a collection of the whole suite: about 20 s
def test_an_option_s_value_is_no_path_that_widens_the_run() -> None:
    """`scripts/test -p no:cacheprovider` read `no:cacheprovider` as a path, as if the
    tests to run had been named, and ran all of them instead of the quick suite."""
    quick = collected()
    assert "deselected" in quick, quick
    assert collected("-p", "no:cacheprovider") == quick
    assert collected("--tb", "short") == quick
    # a path named still runs what it names, all of it
    named = collected("tests/server/test_test_script.py")
    assert "deselected" not in named and named.startswith("1 test"), named
