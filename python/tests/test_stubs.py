"""The type stubs (``tabletop/_core.pyi``) against the extension module itself."""

import os
import subprocess
import sys
from pathlib import Path

import pytest


def test_the_type_stubs_match_the_extension_module(tmp_path):
    pytest.importorskip("mypy", reason="mypy is not installed (scripts/test-python installs it)")
    package = Path(__file__).resolve().parents[1]
    env = dict(os.environ, MYPY_CACHE_DIR=str(tmp_path / "mypy-cache"))
    done = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "tabletop._core"],
        cwd=package,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
