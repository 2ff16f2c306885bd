"""The adapters are typed: mypy checks ``typed_usage.py`` (their constructors' parameters and
their methods' return types) and rejects a misspelt keyword."""

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy", reason="mypy is not installed")

HERE = Path(__file__).parent


def _mypy(*files):
    cmd = [sys.executable, "-m", "mypy", "--no-incremental", "--ignore-missing-imports", "--python-version", "3.11"]
    return subprocess.run([*cmd, *map(str, files)], capture_output=True, text=True, cwd=HERE)


def test_the_adapters_types_check(tmp_path):
    result = _mypy(HERE / "typed_usage.py")
    assert result.returncode == 0, result.stdout + result.stderr
    wrong = tmp_path / "wrong.py"
    wrong.write_text("from tabletop.pettingzoo import uno_v0\nuno_v0.env(opponent='random')\n")
    result = _mypy(wrong)
    assert result.returncode == 1 and 'Unexpected keyword argument "opponent"' in result.stdout, result.stdout
    # The RLCard-compatible environments' returns are typed, not Any.
    wrong.write_text("from tabletop import rlcard\nx: str = rlcard.make('uno').get_player_id()\n")
    result = _mypy(wrong)
    assert result.returncode == 1 and 'Incompatible types in assignment' in result.stdout, result.stdout
