"""with_copies: redundancy added in steps (datasets/redundant.py)."""
import numpy as np
import pytest

from orangecontrib.relief.datasets import corral, led
from orangecontrib.relief.datasets.redundant import with_copies


def test_exact_copies_repeat_the_original():
    data = with_copies(corral(), ["Correlated", "A0"], copies=2)
    names = [v.name for v in data.domain.attributes]
    assert names[6:] == ["Correlated_copy1", "Correlated_copy2",
                         "A0_copy1", "A0_copy2"]
    for name in names[6:]:
        var = data.domain[name]
        original = var.attributes["copy_of"]
        assert var.attributes["relevant"] is False
        np.testing.assert_array_equal(data.get_column(name),
                                      data.get_column(original))
    np.testing.assert_array_equal(data.X[:, :6], corral().X)
    np.testing.assert_array_equal(data.Y, corral().Y)


def test_noisy_copies_redraw_at_the_rate():
    base = led(n_instances=4000, random_state=0)
    data = with_copies(base, ["seg1"], copies=1, noise=0.3, random_state=1)
    differs = data.get_column("seg1_copy1") != data.get_column("seg1")
    # redrawn with probability 0.3, and then different with probability 1/2
    assert differs.mean() == pytest.approx(0.15, abs=0.02)
    again = with_copies(base, ["seg1"], copies=1, noise=0.3, random_state=1)
    np.testing.assert_array_equal(again.X, data.X)
    assert with_copies(base, ["seg1"], copies=0).X.shape == base.X.shape


@pytest.mark.parametrize("options, message", [
    (dict(features=["nope"]), "not a feature"),
    (dict(features=["A0"], copies=-1), "copies"),
    (dict(features=["A0"], noise=1.5), "probability"),
])
def test_errors_say_what_to_change(options, message):
    with pytest.raises(ValueError, match=message):
        with_copies(corral(), **options)
