"""The seed's softer progressive functions: pdReliefF's blend with a linear
or logistic ramp s(t) instead of 1 / t^T (issue 42, item 3)."""
import numpy as np
import pytest

from orangecontrib.relief.core import relieff
from orangecontrib.relief.core.contract.estimates import (VARIANT_D,
                                                          VARIANT_PD,
                                                          VARIANT_PD_LINEAR,
                                                          VARIANT_PD_LOGISTIC,
                                                          blend)


def test_blend_by_hand():
    assert blend(1, VARIANT_PD_LINEAR, 10.0) == 1.0
    assert blend(6, VARIANT_PD_LINEAR, 10.0) == 0.5
    assert blend(12, VARIANT_PD_LINEAR, 10.0) == 0.0
    assert blend(5, VARIANT_PD_LOGISTIC, 10.0) == 0.5
    assert blend(10, VARIANT_PD_LOGISTIC, 10.0) == pytest.approx(
        1 / (1 + np.exp(4)))
    assert blend(4, VARIANT_PD, 0.5) == 0.5           # 1 / 4^0.5
    assert blend(4, VARIANT_D, 0.5) == 0.0


def data(seed=0):
    rng = np.random.default_rng(seed)
    X = rng.random((120, 8))
    y = ((X[:, 0] + X[:, 1]) > 1).astype(float)
    return X, y


@pytest.mark.parametrize("variant", ["pdrelieff-linear",
                                     "pdrelieff-logistic"])
@pytest.mark.parametrize("kernels", ["compiled", "vectorised"])
def test_ramps_reach_their_ends(variant, kernels):
    """A ramp too short to matter is dReliefF; a ramp far longer than the
    run keeps the uniform weights, which is ReliefF."""
    X, y = data()
    short = relieff(X, y, variant=variant, T=1e-9, kernels=kernels).weights
    d = relieff(X, y, variant="drelieff", kernels=kernels).weights
    np.testing.assert_allclose(short, d, atol=1e-15)
    if variant == "pdrelieff-linear":
        long = relieff(X, y, variant=variant, T=1e12, kernels=kernels)
        np.testing.assert_allclose(long.weights, relieff(X, y).weights,
                                   atol=1e-12)


@pytest.mark.parametrize("variant", ["pdrelieff-linear",
                                     "pdrelieff-logistic"])
def test_ramps_lie_between_and_agree_across_backends(variant):
    X, y = data(1)
    compiled = relieff(X, y, variant=variant, kernels="compiled")
    vectorised = relieff(X, y, variant=variant, kernels="vectorised")
    np.testing.assert_allclose(compiled.weights, vectorised.weights,
                               atol=1e-14)
    assert compiled.T == len(X)                 # the ramp's length, T m
    assert not np.allclose(compiled.weights,
                           relieff(X, y, variant="drelieff").weights)
    assert not np.allclose(compiled.weights, relieff(X, y).weights)


def test_ramp_with_regression_and_sparse():
    import scipy.sparse as sp
    X, y = data(2)
    r = relieff(X, X[:, 0] + X[:, 1], variant="pdrelieff-linear",
                regression=True, T=1e-9)
    d = relieff(X, X[:, 0] + X[:, 1], variant="drelieff", regression=True)
    np.testing.assert_allclose(r.weights, d.weights, atol=1e-15)
    Xs = np.where(X < 0.5, 0.0, X)
    dense = relieff(Xs, y, variant="pdrelieff-logistic").weights
    sparse = relieff(sp.csr_matrix(Xs), y, variant="pdrelieff-logistic")
    np.testing.assert_allclose(sparse.weights, dense, atol=1e-12)


def test_unknown_variant_names_the_ramps():
    X, y = data()
    with pytest.raises(ValueError, match="pdrelieff-linear"):
        relieff(X, y, variant="pdrelieff-cubic")


def test_ramps_do_not_run_on_a_cluster():
    from orangecontrib.relief.distributed import check_cluster_options
    with pytest.raises(ValueError, match=r"pdReliefF \(logistic ramp\) "
                                         "cannot run on a Dask"):
        check_cluster_options("pdrelieff-logistic")
