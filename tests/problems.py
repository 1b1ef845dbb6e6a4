"""Small random problems shared by the engine tests."""
import numpy as np


def random_problem(seed, n=24, a=5, n_classes=3, missing=0.1, ties=True):
    rng = np.random.default_rng(seed)
    nominal = np.array([f % 2 == 1 for f in range(a)])
    X = np.where(nominal, rng.integers(0, 3, (n, a)),
                 rng.integers(0, 4, (n, a)) if ties else rng.random((n, a)))
    X = X.astype(float)
    X[rng.random((n, a)) < missing] = np.nan
    y = rng.integers(0, n_classes, n).astype(float)
    return X, y, nominal


def sparse_problem(seed, n=150, a=80, regression=False):
    """Sparse data with what trips up sparse distances: duplicated rows,
    all-zero rows, explicitly stored zeros and a nominal column."""
    import scipy.sparse as sp
    rng = np.random.default_rng(seed)
    X = np.round(rng.random((n, a)) * (rng.random((n, a)) < 0.1), 2)
    X[:, 0] = (rng.random(n) < 0.5) * rng.random(n)
    X[:, 5] = (X[:, 5] > 0) * rng.integers(1, 4, n)
    X[10:20] = X[0]                               # duplicates
    X[20:25] = 0.0                                # empty rows
    nominal = np.arange(a) == 5
    y = (X[:, 0] + X[:, 1] > 0.4).astype(float)
    if regression:
        y = X[:, 0] + 0.3 * rng.random(n)
    Xs = sp.csr_matrix(X)
    Xs.data[::7] = 0.0                            # stored zeros
    np.testing.assert_array_equal(Xs.toarray(), np.where(
        Xs.toarray() == 0, 0, X))
    return Xs, y, nominal
