import numpy as np
import pytest


@pytest.fixture
def rng():
    return np.random.default_rng(12345)


def pick(mask, rng):
    """A uniformly random legal index of a mask row."""
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])
