"""Instance weights in the engine (issue 40, item 1; doc/semantics.md,
"Instance weights"): an instance of weight w counts as w copies of itself.

Integer weights are held to the table with each row repeated w times (every
instance visited; the repeated table scored by the default kernels), and
any weights to a loop-by-loop reference written here from the semantics
(``reference_relieff``), not from the engine's code.
"""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from orangecontrib.relief.core import engine
from orangecontrib.relief.core.backends import base
from orangecontrib.relief.core.backends.compiled.backend import \
    CompiledBackend
from orangecontrib.relief.core.backends.cuda.backend import auto_declines
from orangecontrib.relief.core.backends.selection import local_backend
from orangecontrib.relief.core.backends.vectorised import VectorisedBackend
from orangecontrib.relief.core.contract import neighbours
from orangecontrib.relief.core.contract.prepare import with_target
from orangecontrib.relief.core.rules import RULES

TOL = 1e-12
BACKENDS = ["compiled", "vectorised"]


def relieff(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return engine.relieff(*args, **kwargs)


def make_data(kind, n=22, seed=0):
    """(X, y of classes, y numeric, nominal mask) of a small table."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, 4))
    nominal = np.zeros(4, bool)
    if kind in ("nominal", "mixed", "missing"):
        cols = [0, 1, 2, 3] if kind == "nominal" else [2, 3]
        X[:, cols] = rng.integers(0, 3, (n, len(cols)))
        nominal[cols] = True
    if kind == "missing":
        X[rng.random(X.shape) < 0.15] = np.nan
    y = rng.integers(0, 3, n).astype(float)
    return X, y, rng.random(n), nominal


def integer_weights(n, seed=0):
    weights = np.random.default_rng(seed + 100).integers(0, 4, n)
    weights[:4] = [0, 1, 2, 3]      # each of 0, 1, 2, 3 at least once
    return weights.astype(float)


def repeated(X, y, weights):
    rows = np.repeat(np.arange(len(y)), weights.astype(int))
    return X[rows], y[rows]


def assert_repeated(X, y, nominal, weights, kernels, **options):
    """The weighted run equals the repeated table's to TOL."""
    weighted = relieff(X, y, nominal, instance_weights=weights,
                       kernels=kernels, **options).weights
    Xr, yr = repeated(X, y, weights)
    expected = relieff(Xr, yr, nominal, **options).weights
    np.testing.assert_allclose(weighted, expected, rtol=0, atol=TOL)
    return weighted


CLASSIFICATION = ([dict(neighbours=name) for name in RULES]
                  + [dict(misses="any"), dict(k_nearest=3),
                     dict(weight_by_distance=True, k_nearest=5, sigma=2.0),
                     dict(misses="any", neighbours="multisurf*")])


@pytest.mark.parametrize("kernels", BACKENDS)
@pytest.mark.parametrize("kind", ["numeric", "nominal", "mixed", "missing"])
@pytest.mark.parametrize("options", CLASSIFICATION,
                         ids=lambda o: ",".join(f"{k}={v}"
                                                for k, v in o.items()))
def test_integer_weights_equal_repeated_rows(kind, options, kernels):
    X, y, _, nominal = make_data(kind)
    weights = integer_weights(len(y))
    result = assert_repeated(X, y, nominal, weights, kernels, **options)
    unweighted = relieff(X, y, nominal, **options).weights
    assert np.abs(result - unweighted).max() > 1e-6     # weights matter


REGRESSION = ([dict(neighbours=name) for name, rule in RULES.items()
               if not rule.far]
              + [dict(k_nearest=3),
                 dict(weight_by_distance=True, k_nearest=5)])


@pytest.mark.parametrize("kernels", BACKENDS)
@pytest.mark.parametrize("kind", ["numeric", "nominal", "mixed", "missing"])
@pytest.mark.parametrize("options", REGRESSION,
                         ids=lambda o: ",".join(f"{k}={v}"
                                                for k, v in o.items()))
def test_rrelieff_integer_weights_equal_repeated_rows(kind, options,
                                                      kernels):
    X, _, target, nominal = make_data(kind, seed=1)
    weights = integer_weights(len(target), seed=1)
    assert_repeated(X, target, nominal, weights, kernels, regression=True,
                    **options)


@pytest.mark.parametrize("variant", ["drelieff", "pdrelieff"])
@pytest.mark.parametrize("options", [dict(), dict(neighbours="multisurf"),
                                     dict(regression=True)],
                         ids=["k", "multisurf", "regression"])
@pytest.mark.parametrize("kind", ["mixed", "missing"])
def test_feedback_variants_visit_copies_in_turn(variant, options, kind):
    """dReliefF and pdReliefF use the weights: a visit to an instance of
    weight w is w steps, one per copy, so integer weights equal the repeated
    table visited in the order in which each instance's copies follow one
    another (its random order would visit them apart); with missing values,
    the compiled weighted diffs' RELIEF-D laws."""
    X, y, target, nominal = make_data(kind, n=18, seed=2)
    if options.get("regression"):
        y = target
    weights = integer_weights(len(y), seed=2)
    setup = engine.start(X, y, nominal, instance_weights=weights,
                         variant=variant, **options)
    result = engine.run_setup(setup).weights
    kept = np.flatnonzero(weights > 0)          # the prepared rows
    rows = np.concatenate([np.full(int(weights[r]), r)
                           for r in kept[setup.order]])
    copies = engine.start(X[rows], y[rows], nominal, variant=variant,
                          **options)
    assert copies.T == setup.T          # T = 2 / ln(sum of weights)
    expected = engine.run_setup(copies._replace(
        order=np.arange(len(rows)))).weights
    np.testing.assert_allclose(result, expected, rtol=0, atol=TOL)
    unweighted = relieff(X, y, nominal, variant=variant, **options).weights
    assert np.abs(result - unweighted).max() > 1e-6


@pytest.mark.parametrize("variant", ["relieff", "drelieff", "pdrelieff"])
def test_fractional_weights_are_continuous(variant):
    X, y, _, nominal = make_data("mixed")
    weights = integer_weights(len(y)) + 1.0
    weights[5] = 2.0
    base_run = relieff(X, y, nominal, instance_weights=weights,
                       variant=variant).weights
    as_ints = relieff(X, y, nominal, instance_weights=weights.astype(int),
                      variant=variant).weights
    assert np.array_equal(as_ints, base_run)
    for near in (1.999999, 2.000001):
        weights[5] = near
        moved = relieff(X, y, nominal, instance_weights=weights,
                        variant=variant).weights
        assert 0 < np.abs(moved - base_run).max() < 1e-4


def test_scaling_every_weight_is_not_the_unweighted_run():
    """Copies fill slots: doubling every weight is the table with every
    row twice, whose k nearest are other instances' copies."""
    X, y, _, nominal = make_data("numeric")
    doubled = relieff(X, y, nominal, k_nearest=4,
                      instance_weights=np.full(len(y), 2.0)).weights
    unweighted = relieff(X, y, nominal, k_nearest=4).weights
    assert np.abs(doubled - unweighted).max() > 1e-3
    Xr, yr = repeated(X, y, np.full(len(y), 2.0))
    np.testing.assert_allclose(
        doubled, relieff(Xr, yr, nominal, k_nearest=4).weights, atol=TOL)


@pytest.mark.parametrize("kernels", [None, "compiled", "vectorised"])
def test_ones_and_zeros_take_todays_path(kernels):
    X, y, _, nominal = make_data("missing")
    plain = relieff(X, y, nominal, kernels=kernels).weights
    ones = relieff(X, y, nominal, kernels=kernels,
                   instance_weights=np.ones(len(y))).weights
    assert np.array_equal(ones, plain, equal_nan=True)
    weights = np.ones(len(y))
    weights[[3, 7]] = 0
    keep = weights > 0
    removed = relieff(X[keep], y[keep], nominal, kernels=kernels).weights
    zeroed = relieff(X, y, nominal, kernels=kernels,
                     instance_weights=weights).weights
    assert np.array_equal(zeroed, removed, equal_nan=True)


def test_rows_of_a_missing_class_drop_their_weights():
    X, y, _, nominal = make_data("mixed")
    weights = integer_weights(len(y)) + 0.5
    y_missing = y.copy()
    y_missing[[2, 9]] = np.nan
    keep = ~np.isnan(y_missing)
    with pytest.warns(UserWarning, match="missing class"):
        dropped = engine.relieff(X, y_missing, nominal,
                                 instance_weights=weights).weights
    kept = relieff(X[keep], y[keep], nominal,
                   instance_weights=weights[keep]).weights
    np.testing.assert_array_equal(dropped, kept)


def test_sparse_data_with_weights_equals_dense():
    X, y, _, nominal = make_data("numeric")
    X[X < 0.5] = 0
    weights = integer_weights(len(y)) + 0.25
    dense = relieff(X, y, nominal, instance_weights=weights).weights
    sparse = relieff(sp.csr_matrix(X), y, nominal,
                     instance_weights=weights).weights
    np.testing.assert_allclose(sparse, dense, atol=TOL)


def test_trace_and_sampling_divide_by_the_visited_weight():
    X, y, _, nominal = make_data("numeric")
    weights = integer_weights(len(y)) + 0.5
    result = relieff(X, y, nominal, instance_weights=weights,
                     trace_every=5)
    np.testing.assert_allclose(result.trace[-1], result.weights, atol=TOL)
    setup = engine.start(X, y, nominal, instance_weights=weights,
                         n_iterations=7, random_state=3)
    sampled = engine.run_setup(setup).weights
    expected = reference_relieff(X, y, nominal, weights, k=10,
                                 visits=setup.order)
    np.testing.assert_allclose(sampled, expected, atol=TOL)


@pytest.mark.parametrize("kind", ["numeric", "nominal", "mixed"])
@pytest.mark.parametrize("k", [1, 3, 10])
def test_reference_loop_with_fractional_weights(kind, k):
    """The engine against ``reference_relieff``, a loop-by-loop reading of
    the semantics, with fractional weights (ties included: nominal
    data)."""
    X, y, _, nominal = make_data(kind, seed=4)
    weights = np.random.default_rng(5).random(len(y)) * 3
    weights[:3] = [0.0, 0.3, 2.7]
    for kernels in BACKENDS:
        result = relieff(X, y, nominal, k_nearest=k, kernels=kernels,
                         instance_weights=weights).weights
        np.testing.assert_allclose(
            result, reference_relieff(X, y, nominal, weights, k), atol=TOL)


def test_weighted_tie_shares_with_weights_one_are_tie_shares():
    ranked = np.array([0.0, 0.1, 0.1, 0.1, 0.3, 0.3, 0.5])
    for k in range(1, 8):
        for rank_weights in (np.ones(k), np.exp(-(np.arange(k) / 2) ** 2)):
            plain, weighted = np.zeros(7), np.zeros(7)
            m = neighbours.tie_shares(ranked, k, rank_weights, -1.0, plain)
            m_w = neighbours.weighted_tie_shares(ranked, np.ones(7), k,
                                                 rank_weights, -1.0, weighted)
            assert m == m_w
            assert np.array_equal(plain[:m], weighted[:m])


def test_weighted_tie_shares_fill_slots_by_weight():
    coef = np.zeros(3)
    # weights 2, 1, 1 at distinct distances, k = 3: the first fills two
    # slots, the second one, the third none
    m = neighbours.weighted_tie_shares(np.array([0.1, 0.2, 0.3]),
                                       np.array([2.0, 1.0, 1.0]), 3,
                                       np.ones(3), 1.0, coef)
    assert m == 2
    np.testing.assert_allclose(coef[:2], [2 / 3, 1 / 3])
    # a tie of weights 1 and 3 for the last 2 of 3 slots: shares 1 : 3
    m = neighbours.weighted_tie_shares(np.array([0.1, 0.2, 0.2]),
                                       np.array([1.0, 1.0, 3.0]), 3,
                                       np.ones(3), 1.0, coef)
    assert m == 3
    np.testing.assert_allclose(coef, [1 / 3, 2 / 3 * 1 / 4, 2 / 3 * 3 / 4])


def test_which_backend_computes_weights():
    """The compiled kernels take every weighted run, missing values
    included (RELIEF-D's weighted laws are in the compiled diffs), so the
    missing-value cases above run on both backends; the NumPy backend
    where ``kernels`` asks for it."""
    for kind in ("mixed", "missing"):
        X, y, _, nominal = make_data(kind)
        setup = engine.start(X, y, nominal,
                             instance_weights=integer_weights(len(y)))
        for kernels in BACKENDS:
            with local_backend(setup, 1, kernels=kernels) as backend:
                wanted = VectorisedBackend if kernels == "vectorised" \
                    else CompiledBackend
                assert type(backend) is wanted


def test_weights_stay_with_their_rows_on_another_target():
    X, y, _, nominal = make_data("missing")
    weights = integer_weights(len(y)) + 0.5
    setup = engine.start(X, y, nominal, instance_weights=weights)
    permuted = with_target(setup.prep, y[::-1])
    assert permuted.instance_weights is setup.prep.instance_weights
    assert permuted.law_weights is not None


BAD = [
    (np.ones(5), "has 5 entries but X has 22 rows"),
    (-np.ones(22), "must be >= 0; the weight of row 0 is -1.0"),
    (np.r_[np.nan, np.ones(21)], "must be finite; the weight of row 0"),
    (np.r_[np.inf, np.ones(21)], "must be finite; the weight of row 0"),
    (np.ones((22, 2)), "must be one-dimensional"),
    (np.zeros(22), "are 0 for every row"),
    (["heavy"] * 22, "must be numbers"),
    (np.ones(22) * 1j, "must be real numbers"),
]


@pytest.mark.parametrize("weights, message", BAD,
                         ids=[message for _, message in BAD])
def test_bad_weights_are_named(weights, message):
    X, y, _, nominal = make_data("numeric")
    with pytest.raises(ValueError, match=message.replace(".", r"\.")):
        engine.relieff(X, y, nominal, instance_weights=weights)
    with pytest.raises(ValueError, match=message.replace(".", r"\.")):
        engine.start(X, y, nominal, instance_weights=weights)


def test_modes_that_do_not_take_weights_say_so():
    X, y, _, nominal = make_data("numeric")
    weights = integer_weights(len(y))
    with pytest.raises(ValueError, match="Weka's ReliefFAttributeEval, "
                                         "which ignores instance weights"):
        engine.relieff(X, y, nominal, compat="weka", instance_weights=weights)
    # weights all 1 are no weights, in Weka's mode too
    assert np.array_equal(
        relieff(X, y, nominal, compat="weka",
                instance_weights=np.ones(len(y))).weights,
        relieff(X, y, nominal, compat="weka").weights)
    with pytest.raises(ValueError, match="CORElearn's 1/d"):
        engine.relieff(X, y, nominal, weight_by_distance="distance",
                       instance_weights=weights)
    setup = engine.start(X, y, nominal, instance_weights=weights)
    assert "instance weights" in auto_declines(setup)
    with pytest.raises(ValueError, match="does not take instance weights"):
        base.check_weights(type("Other", (base.Backend,),
                                {"name": "other"}), setup)


# -- the reference --------------------------------------------------------

def reference_relieff(X, y, nominal, weights, k, visits=None):
    """ReliefF (k nearest hits and misses of each other class) of weighted
    instances, from doc/semantics.md alone, one visit and one neighbour at
    a time: complete data; instances whose distances to R are equal tie."""
    keep = weights > 0
    X, y, weights = X[keep], y[keep], weights[keep]
    n, a = X.shape
    span = np.ptp(X, axis=0)
    classes = np.unique(y)
    prior = {c: weights[y == c].sum() / weights.sum() for c in classes}

    def diff(i, j):
        out = np.zeros(a)
        for f in range(a):
            if span[f] == 0:
                continue
            if nominal[f]:
                out[f] = float(X[i, f] != X[j, f])
            else:
                out[f] = abs(X[i, f] - X[j, f]) / span[f]
        return out

    def group_mean(r, members):
        """Mean diff of R's k nearest among ``members`` (index, copies):
        copies fill slots in the order of the distances, a tied run shares
        the slots it covers by weight."""
        members = sorted(members, key=lambda m: diff(r, m[0]).sum())
        total = np.zeros(a)
        position, i = 0.0, 0
        while i < len(members):
            d = diff(r, members[i][0]).sum()
            run = [m for m in members[i:]
                   if abs(diff(r, m[0]).sum() - d) <= 1e-10 * d]
            run_weight = sum(c for _, c in run)
            slots = min(max(k - position, 0.0), run_weight)
            for j, c in run:
                total += slots * c / run_weight * diff(r, j)
            position += run_weight
            i += len(run)
        return total / min(k, sum(c for _, c in members))

    visits = range(len(y)) if visits is None else visits
    # (``visits``: rows of the data without its weight-0 rows)
    result = np.zeros(a)
    for r in visits:
        update = np.zeros(a)
        for c in classes:
            members = [(j, weights[j] if j != r else weights[r] - 1)
                       for j in range(n) if y[j] == c]
            members = [(j, w) for j, w in members if w > 0]
            if not members:
                continue
            if c == y[r]:
                update -= group_mean(r, members)
            else:
                update += prior[c] / (1 - prior[y[r]]) \
                    * group_mean(r, members)
        result += weights[r] * update
    return result / sum(weights[r] for r in visits)


def test_k_above_the_weighted_rows_is_not_cut_to_them():
    """k is cut to what the copies allow (the weights' sum), not to the
    rows of positive weight: 9 rows of weight 1-4 hold up to 26 other
    copies, so k = 9, 10, 12 reach past the rows (found by scikit-learn's
    sample-weight check)."""
    rng = np.random.RandomState(42)
    X, y = rng.rand(15, 30), rng.randint(0, 3, 15).astype(float)
    weights = rng.randint(0, 5, 15).astype(float)
    nominal = np.zeros(30, bool)
    for k in (9, 10, 12):
        for kernels in BACKENDS:
            result = relieff(X, y, k_nearest=k, kernels=kernels,
                             instance_weights=weights).weights
            np.testing.assert_allclose(
                result, reference_relieff(X, y, nominal, weights, k),
                atol=TOL)
            expected = relieff(*repeated(X, y, weights), k_nearest=k,
                               kernels=kernels).weights
            np.testing.assert_allclose(result, expected, atol=TOL)
