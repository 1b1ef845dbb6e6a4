"""The engine's speed mechanisms (``core/speedups.py``): each switched off
leaves every weight the same, and each one's own guarantee holds -- the
screens' error bounds, the running row sums, the grouped visits, the fused
parallel regions."""
import numpy as np
import pytest

from orangecontrib.relief.core import Speedups, relieff
from orangecontrib.relief.core.backends import base, runtime
from orangecontrib.relief.core.contract import (estimates, neighbours, nominal,
                                                sparse)
from orangecontrib.relief.core.backends.compiled import (feedback_loop as feedback,
                                                         layouts, screens)
from orangecontrib.relief.core.contract.distances import distance
from orangecontrib.relief.core.contract.prepare import prepare
from problems import random_problem, sparse_problem
from reference import reference_relief

ALL = Speedups()


def _problems():
    """(name, X, y, nominal, options) on which each mechanism acts."""
    rng = np.random.default_rng(30)
    cont = rng.random((300, 40))
    y = ((cont[:, 0] + cont[:, 1] > 1) ^ (rng.random(300) < 0.1)).astype(
        float)
    wide = rng.random((270, 90))
    mixed = wide.copy()
    mixed[:, ::2] = rng.integers(0, 5, (270, 45))
    y_wide = (wide[:, 1] + wide[:, 3] > 1).astype(float)
    snps = rng.integers(0, 3, (700, 400)).astype(float)
    y_snps = ((snps[:, 0] + snps[:, 1]) % 2).astype(float)
    X_sparse, y_sparse, nominal_sparse = sparse_problem(9, n=300, a=300)
    blanked = np.where(rng.random(mixed.shape) < 0.05, np.nan, mixed)
    return [
        ("missing", blanked, y_wide, np.arange(90) % 2 == 0, {}),
        ("numeric", cont, y, np.zeros(40, bool), {}),
        ("mixed", mixed, y_wide, np.arange(90) % 2 == 0, {}),
        ("wide", wide, y_wide, np.zeros(90, bool), dict(k_nearest=4)),
        ("nominal", snps, y_snps, np.ones(400, bool), {}),
        ("sparse", X_sparse, y_sparse, nominal_sparse, {}),
        ("regression", cont, cont[:, 0] + 0.2 * rng.random(300),
         np.zeros(40, bool), dict(regression=True)),
    ]


@pytest.mark.parametrize("variant", ["relieff", "drelieff", "pdrelieff"])
def test_every_speedup_off_gives_the_same_weights(variant, monkeypatch):
    """Each mechanism of ``Speedups`` switched off (and all of them at
    once): the same weights and traces, bit for bit, on numeric, mixed,
    nominal, sparse and regression data and on mixed data with missing
    values, with the uint16 copy forced on for the small data."""
    monkeypatch.setattr(layouts, "QUANTISED_MIN_BYTES", 40_000)
    monkeypatch.setattr(layouts, "PARALLEL_ROW_TERMS", 0)
    off = [Speedups(**{name: False}) for name in Speedups._fields]
    off.append(Speedups(*[False] * len(Speedups._fields)))
    for name, X, y, nominal_, options in _problems():
        expected = relieff(X, y, nominal_, variant=variant, trace_every=50,
                           **options)
        for speedups in off:
            result = relieff(X, y, nominal_, variant=variant,
                             trace_every=50, speedups=speedups, **options)
            switched = [f for f, on in zip(Speedups._fields, speedups)
                        if not on]
            assert np.array_equal(result.weights, expected.weights), \
                (name, switched)
            assert np.array_equal(result.trace, expected.trace), \
                (name, switched)


def test_blocking_and_tiling_do_not_change_the_weights(monkeypatch):
    """Several tiles of other rows, blocks of four visited rows with a
    remainder, one and two threads: the same weights as a plain
    one-row-at-a-time run."""
    X, y, nominal_ = random_problem(6, n=71, a=6, missing=0.0)
    reference = reference_relief(X, y, nominal_, k=4)
    monkeypatch.setattr(layouts, "BY_FEATURE_TILE", 16)
    numeric = np.zeros(6, bool)     # numeric data is screened by feature
    reference_numeric = reference_relief(X, y, numeric, k=4)
    for n_jobs in (1, 2):
        w = relieff(X, y, nominal_, k_nearest=4, n_jobs=n_jobs).weights
        np.testing.assert_allclose(w, reference, rtol=1e-10, atol=1e-12)
        w = relieff(X, y, numeric, k_nearest=4, n_jobs=n_jobs).weights
        np.testing.assert_allclose(w, reference_numeric, rtol=1e-10,
                                   atol=1e-12)


@pytest.mark.parametrize("variant", ["relieff", "drelieff", "pdrelieff"])
def test_float32_screen_chooses_the_float64_neighbours(variant, monkeypatch):
    """Distances that differ by ~1e-9 (more than TIE_RTOL) are equal in
    float32: the screen must still pick the float64 neighbours."""
    rng = np.random.default_rng(11)
    X = rng.integers(0, 4, (48, 5)) + 1e-8 * rng.random((48, 5))
    y = rng.integers(0, 2, 48).astype(float)
    numeric = np.zeros(5, bool)
    expected = reference_relief(X, y, numeric, variant=variant, k=3)
    # the test can fail: float32-rounded data choose other neighbours
    rounded = reference_relief(X.astype(np.float32), y, numeric,
                               variant=variant, k=3)
    assert np.abs(rounded - expected).max() > 1e-3
    prep = prepare(X, y, numeric, False)
    copy = layouts.screening(prep, ALL).copy
    assert copy.dtype == np.float32 and copy.shape == X.shape
    assert layouts.blocks(prep, ALL).copy.dtype == np.float32
    for n_jobs in (1, 2):
        w = relieff(X, y, numeric, variant=variant, k_nearest=3,
                    n_jobs=n_jobs).weights
        np.testing.assert_allclose(w, expected, rtol=1e-10, atol=1e-12)
    if variant != "relieff":            # the uint16 screen
        monkeypatch.setattr(layouts, "QUANTISED_MIN_BYTES", 0)
        assert layouts.screening(prep, ALL).copy.dtype == np.uint16
        w = relieff(X, y, numeric, variant=variant, k_nearest=3).weights
        np.testing.assert_allclose(w, expected, rtol=1e-10, atol=1e-12)
    else:   # ReliefF's row-major blocks (min form) instead of by feature
        for speedups in (Speedups(by_feature=False),
                         Speedups(by_feature=False, min_form=False)):
            w = relieff(X, y, numeric, k_nearest=3,
                        speedups=speedups).weights
            np.testing.assert_allclose(w, expected, rtol=1e-10, atol=1e-12)
    # no float32 copy (ReliefF's blocks read the float64 data)
    monkeypatch.setattr(layouts, "SCREEN_MAX_FEATURES", 0)
    assert layouts.blocks(prep, ALL).copy.dtype == np.float64
    w = relieff(X, y, numeric, variant=variant, k_nearest=3).weights
    np.testing.assert_allclose(w, expected, rtol=1e-10, atol=1e-12)


def test_wide_data_sums_the_screen_in_parts():
    """More numeric features than screens.MIN_FORM_CHUNK: ReliefF's float32
    sums are taken in parts; the weights are still the float64 ones."""
    rng = np.random.default_rng(12)
    a = screens.MIN_FORM_CHUNK + 100
    X = rng.integers(0, 3, (40, a)) + 1e-7 * rng.random((40, a))
    y = (X[:, 0] + X[:, 1] + rng.random(40) > 2.5).astype(float)
    expected = reference_relief(X, y, np.zeros(a, bool), k=3)
    w = relieff(X, y, k_nearest=3).weights
    np.testing.assert_allclose(w, expected, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("kinds", ["numeric", "nominal", "mixed"])
@pytest.mark.parametrize("variant", ["relieff", "drelieff", "pdrelieff"])
def test_screened_runs_agree_with_reference(kinds, variant, monkeypatch):
    """Complete data (the float32 screen is on) full of distance ties."""
    X, y, nominal_ = random_problem(8, n=60, a=6, missing=0.0)
    nominal_[:] = {"numeric": False, "nominal": True, "mixed": nominal_}[kinds]
    X[:, nominal_] = np.minimum(X[:, nominal_], 2)    # codes 0..2
    prep = prepare(X, y, nominal_, False)
    assert layouts.screening(prep, ALL).copy.shape[0] == 60
    expected = reference_relief(X, y, nominal_, variant=variant, k=4)
    w = relieff(X, y, nominal_, variant=variant, k_nearest=4).weights
    np.testing.assert_allclose(w, expected, rtol=1e-10, atol=1e-12)
    monkeypatch.setattr(layouts, "QUANTISED_MIN_BYTES", 0)   # uint16 screen
    w = relieff(X, y, nominal_, variant=variant, k_nearest=4).weights
    np.testing.assert_allclose(w, expected, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("copy", ["float32", "float32 in parts", "float64",
                                  "float32 abs form", "float32 weighted",
                                  "uint16 weighted"])
def test_screen_error_bound_holds(copy):
    """The screening distances are within their proven bounds of the float64
    distances (screens.min_form_bound for ReliefF's blocks in the min form,
    screens.screen_bound otherwise), on values spread over many binades,
    with nominal features too."""
    rng = np.random.default_rng(5)
    n, a = 64, 300
    is_nominal = np.arange(a) >= 250
    X = np.where(is_nominal, rng.integers(0, 3, (n, a)),
                 rng.random((n, a)) ** 8)
    weighted = "weighted" in copy
    unit = 1 / 65535 if copy.startswith("uint16") else 0.0
    if unit:    # every value 0.49 steps off the grid, all pairs one way
        X[:4, :250] = (rng.integers(40000, 65000, (4, 250)) + 0.49) * unit
        X[4:, :250] = (rng.integers(1000, 30000, (60, 250)) - 0.49) * unit
        X[-2, :250], X[-1, :250] = 0.0, 1.0         # range exactly [0, 1]
    prep = prepare(X, rng.integers(0, 2, n), is_nominal, False)
    num, nom = prep.num, prep.nom
    screen_copy = (layouts._quantised_copy(prep) if unit
                   else num if copy == "float64"
                   else num.astype(np.float32))
    w = rng.random(a) if weighted else np.ones(a)
    w32 = np.empty(a, np.float32)
    c_err, gamma, weights = screens.screen_weights(
        num, screen_copy, w, unit, w32, np.arange(250))
    assert np.array_equal(w32, np.where(np.arange(a) < 250, w * (unit or 1),
                                        w).astype(np.float32))
    if weighted:
        assert (c_err, gamma) == screens.screen_bound(num, w, True, unit)
    else:
        c_err, gamma = screens.screen_bound(num, w, False, unit)
    exact = np.empty(n)
    screened = np.empty((4, n))
    rows = np.arange(4)
    by_feature = np.empty((4, n))
    min_form = "abs" not in copy
    all_planes, all_bits = nominal.pack_planes(nom)
    if not weighted:
        row_sums = screen_copy.sum(axis=1, dtype=np.float64)
        # sums in float32 over all 250 numeric features, or over parts of
        # 64 (the last one shorter), added in float64
        chunk = 64 if copy.endswith("parts") else screens.MIN_FORM_CHUNK
        screens.tiled_distances(rows, screen_copy, row_sums, all_planes,
                                all_bits, screened, chunk, min_form)
        c0, c1 = screens.min_form_bound(250, copy != "float64", chunk)
        numeric = np.ascontiguousarray(screen_copy.T, dtype=np.float32)
        screens.by_feature_tiles(rows, numeric, by_feature,
                                 np.empty((4, 16), np.float32))
    if weighted:    # in two parts, as dReliefF does on long rows
        screens.weighted_screens(rows, screen_copy, nom, weights, screened, 2)
    for i in rows:
        for j in range(n):
            exact[j] = distance(i, j, num, nom, w, weighted)
        exact[i] = 0.0
        error = np.abs(screened[i] - exact)
        if weighted or not min_form:
            assert np.all(error <= c_err + gamma * screened[i])
        else:
            bound = c0 + c1 * row_sums[i]
            assert np.all(error <= bound)
            # the bound is not loose by orders of magnitude either
            assert error.max() > bound * (0 if copy == "float64" else 1e-4)
        assert error.max() > 0          # the sums did round
        if unit:    # the rounding to uint16 steps needs its term of c
            c_without = c_err - 1.1 * unit * w[:250].sum()
            assert np.any(error > c_without + gamma * screened[i])
        if not weighted:
            numeric_only = exact - np.array(
                [np.count_nonzero(nom[i] != nom[j]) for j in range(n)])
            error = np.abs(by_feature[i] - numeric_only)
            assert np.all(error <= c_err + gamma * by_feature[i])


def _feedback_state(prep, lazy):
    """A sparse feedback run's settings, screening copy, running row sums
    and carry (``plan.feedback``) with the waiting ratio ``lazy``."""
    run, screening, tracking, carry = layouts.feedback(
        prep, estimates.VARIANT_D, 0.7, False, ALL, 1)
    return run, screening, tracking, carry._replace(lazy=lazy)


@pytest.mark.parametrize("variant", [1, 2])
@pytest.mark.parametrize("lazy_rtol", [0.0, 0.05])
def test_tracked_row_sums_follow_the_weights(variant, lazy_rtol):
    """After every step the tracked per-row sums give sum_A w_A diff(A, 0,
    x_jA) for that step's distance weights, as a fresh computation does:
    exactly when nothing may wait, and within the returned bound (times the
    row's unweighted sum) when changes wait."""
    X, y, nominal_ = sparse_problem(4)
    prep = prepare(X, y, nominal_, False)
    data = prep.data(False)
    n, a = X.shape[0], prep.n_used
    T = 0.7
    hood = base.neighbourhood(prep, False, "per_class", 3, False, 2.0)
    _, screening, tracking, carry = _feedback_state(prep, lazy_rtol)
    run = feedback.Feedback(variant, T, False, 1)
    assert tracking.sums.shape == (2, 3, n)
    assert 0 < tracking.split[1] < a
    total = np.zeros(a)
    order = np.random.default_rng(0).permutation(n)
    current, w = np.zeros(a), np.empty(a)
    fresh, tracked_base = np.empty(n), np.empty(n)
    work = feedback._work(data, tracking, total)
    # (no earlier visit's update to apply first)
    no_update = (-1, -1, np.zeros(0, np.int64), np.zeros(0), 2)
    n_positive, n_waiting = 0, 0
    for t0 in range(n):
        _, carry = feedback.feedback_batch(
            order[t0:t0 + 1], t0, data, hood, run, screening, tracking,
            carry._replace(lazy=lazy_rtol), ALL, total, 0, np.empty((0, a)))
        t = t0 + 2
        estimates.estimate(total, t - 1, False, current)
        if not estimates.distance_weights(current, t, variant, T, w, n):
            continue
        n_positive += 1
        sparse.row_sums(prep.sp, w, True, fresh)
        coefs = estimates.row_sum_coefficients(total, t, variant, T, False)
        theta = lazy_rtol * w @ tracking.col_base / tracking.col_base.sum()
        work.w[:] = w
        feedback._track_in_parts(data, w, total, run, coefs, theta, tracking,
                                 work, 0, no_update, True)
        sparse.tracked_row_sums(tracking.sums, coefs, tracked_base)
        bound = work.pending.max() * tracking.full_base
        n_waiting += bound.max() > 0
        assert np.all(np.abs(tracked_base - fresh)
                      <= bound + 1e-12 * fresh.max())
    assert n_positive > n // 2
    assert (n_waiting > n // 4) == (lazy_rtol > 0)


@pytest.mark.parametrize("regression", [False, True])
@pytest.mark.parametrize("coefs", [(0.0, 0.25, 0.0), (0.1, 0.3, -0.7)])
def test_pending_changes_are_those_of_the_tracked_sums(regression, coefs):
    """sparse.pending_changes (branch-free) gives, for each feature of a
    range, the change e_A = sum_q |c_q (s_q(A) - applied_q(A))| of its
    tracked sums s(A) (sparse._tracked), or -1 when nothing changed:
    features with w_A <= 0 count s(A) = 0; with c0 = 0 (dReliefF) the
    count s0 is 0 too.  ``applied`` holds only what the tracking can put
    there: s(A)[q] is always 0 for the counts with c0 = 0 and for s2 in
    classification."""
    rng = np.random.default_rng(11)
    a, f0, f1 = 300, 40, 250
    w = rng.normal(size=a)
    w[::7] = 0.0
    total = rng.normal(size=1 + 2 * a if regression else a)
    applied = np.zeros((3, a))
    for f in range(a):      # a third unchanged, the rest changed
        s = sparse._tracked(f, w, total, regression, coefs[0])
        applied[:, f] = s if f % 3 == 0 else np.array(s) + rng.normal(
            size=3) * (rng.random(3) < 0.5)
        if coefs[0] == 0.0:
            applied[0, f] = 0.0
        if not regression:
            applied[2, f] = 0.0
    out = np.full(f1 - f0, np.nan)
    sparse.pending_changes(w, total, regression, coefs, applied, f0, f1, out)
    for f in range(f0, f1):
        s = sparse._tracked(f, w, total, regression, coefs[0])
        d = np.array(s) - applied[:, f]
        expected = (abs(coefs[0] * d[0]) + abs(coefs[1] * d[1])
                    + abs(coefs[2] * d[2])) if np.any(d != 0) else -1.0
        assert out[f - f0] == expected, f
    assert np.sum(out == -1.0) >= (f1 - f0) // 3


@pytest.mark.parametrize("variant", [1, 2])
@pytest.mark.parametrize("regression", [False, True])
def test_feedback_weights_are_distance_weights_of_the_estimate(variant,
                                                               regression):
    """estimates.feedback_weights, one pass over the features, gives the
    same numbers (bit for bit) as estimate followed by distance_weights,
    including the first step and all-non-positive estimates (all 1)."""
    rng = np.random.default_rng(12)
    a = 203
    total = rng.normal(size=1 + 2 * a if regression else a)
    if regression:
        total[0] = 7.0
    current, expected, w = np.empty(a), np.empty(a), np.empty(a)
    for t, tot in [(1, total), (2, total), (17, total), (9, -np.abs(total))]:
        if regression and t == 9:
            continue
        if t > 1:
            estimates.estimate(tot, t - 1, regression, current)
        positive = estimates.distance_weights(current, t, variant, 0.8,
                                              expected, 50)
        assert estimates.feedback_weights(tot, t, variant, 0.8, regression,
                                          np.empty(a), w, 50) == positive
        assert np.array_equal(w, expected), t
    if variant == 1 and not regression:     # the last case: none positive
        assert np.all(w == 1.0)


def test_dot_with_running_sums():
    rng = np.random.default_rng(13)
    for m in (0, 1, 3, 4, 1001):
        x, y = rng.random(m), rng.random(m)
        assert estimates.dot(x, y) == pytest.approx(float(x @ y), rel=1e-13,
                                                    abs=0)


@pytest.mark.parametrize("variant", ["drelieff", "pdrelieff"])
@pytest.mark.parametrize("regression", [False, True])
def test_sparse_feedback_with_waiting_changes_equals_dense(
        variant, regression, monkeypatch):
    """However much of the row sums' change is left pending, screening with
    its bound picks the neighbours of the exact distances."""
    X, y, nominal_ = sparse_problem(5, regression=regression)
    dense = relieff(X.toarray(), y, nominal_, variant=variant,
                    regression=regression).weights
    start = layouts.feedback
    for lazy_rtol in (0.0, 0.01, 0.3):
        def waiting(*args):
            run, screening, tracking, carry = start(*args)
            return run, screening, tracking, carry._replace(lazy=lazy_rtol)
        monkeypatch.setattr(layouts, "feedback", waiting)
        sparse_w = relieff(X, y, nominal_, variant=variant,
                           regression=regression).weights
        np.testing.assert_allclose(sparse_w, dense, rtol=0, atol=1e-12)


def test_screen_order_leaves_zero_weights_out():
    """screens.order_columns: once the zero weights before the last positive
    one have cost REORDER_SCREENS screens, the copy's columns (and its
    column order) are sorted by the key, largest first; the screen then
    sums only the positive columns, and its distances still bound the
    float64 ones."""
    rng = np.random.default_rng(21)
    n, a = 50, 40
    X = rng.random((n, a))
    prep = prepare(X, rng.integers(0, 2, n), np.zeros(a, bool), False)
    copy = layouts.screening(prep, ALL).copy
    original = copy.copy()
    key = rng.normal(size=a)
    w = np.where(key > 0, key, 0.0)
    n_positive = (w > 0).sum()
    span = np.flatnonzero(w > 0).max() + 1
    assert span - n_positive > 5
    order = np.arange(a)
    # waste below the cost of a new order: it only adds up
    rows = int(screens.REORDER_SCREENS * a / (span - n_positive)) - 1
    waste = screens.order_columns(copy, order, w, key, rows, 0.0, 2)
    np.testing.assert_array_equal(order, np.arange(a))
    np.testing.assert_array_equal(copy, original)
    assert waste == pytest.approx(rows * (span - n_positive) / a)
    # one screen's worth more
    rows = int(np.ceil(a / (span - n_positive)))
    waste = screens.order_columns(copy, order, w, key, rows, waste, 2)
    np.testing.assert_array_equal(order, np.argsort(-key, kind="stable"))
    np.testing.assert_array_equal(copy, original[:, order])
    assert waste == 0.0
    assert (w[order[:n_positive]] > 0).all()
    assert (w[order[n_positive:]] == 0).all()
    # with positive weights first, nothing is wasted
    assert screens.order_columns(copy, order, w, key, 1000, 0.0, 1) == 0.0
    w32 = np.empty(a, np.float32)
    c_err, gamma, weights = screens.screen_weights(prep.num, copy, w, 0.0,
                                                   w32, order)
    assert weights.span == n_positive         # the columns summed
    np.testing.assert_array_equal(w32, w[order].astype(np.float32))
    rows = np.array([0, 7, 9])
    screened = np.empty((3, n))
    screens.weighted_screens(rows, copy, prep.nom, weights, screened, 2)
    for i, r in enumerate(rows):
        exact = np.abs(prep.num - prep.num[r]) @ w
        exact[r] = 0.0
        assert np.all(np.abs(screened[i] - exact)
                      <= c_err + gamma * screened[i])
        assert np.abs(screened[i] - exact).max() > 0    # float32 sums


@pytest.mark.parametrize("variant", ["drelieff", "pdrelieff"])
def test_updates_left_to_the_next_parallel_region(variant, monkeypatch):
    """Sparse data whose sums are kept exact (dReliefF) leave each visit's
    update to the next visit's parallel region: the same weights and trace,
    bit for bit, on one thread and two, and those of the dense reference,
    across batches and with traced visits (which update at once)."""
    X, y, nominal_ = sparse_problem(4, n=90)
    dense = X.toarray()
    expected = reference_relief(dense, y, nominal_, variant=variant, k=4)
    monkeypatch.setattr(layouts, "PARALLEL_ROW_TERMS", 0)
    monkeypatch.setattr(runtime, "FIRST_BATCH_TERMS", 40 * 90 * X.shape[1])
    runs = [relieff(X, y, nominal_, variant=variant, k_nearest=4,
                    n_jobs=n_jobs, trace_every=7) for n_jobs in (1, 2)]
    for res in runs:
        np.testing.assert_allclose(res.weights, expected, rtol=1e-10,
                                   atol=1e-12)
    assert np.array_equal(runs[0].weights, runs[1].weights)
    assert np.array_equal(runs[0].trace, runs[1].trace)
    untraced = relieff(X, y, nominal_, variant=variant, k_nearest=4).weights
    np.testing.assert_allclose(untraced, expected, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("variant", ["drelieff", "pdrelieff"])
@pytest.mark.parametrize("seed", [4, 5, 16])
def test_sparse_feedback_with_rounding_residues_equals_dense(seed, variant):
    """sparse_problem(16, n=90), dReliefF, k=4: after the first visit the
    estimate of feature 9 is 1.39e-17 (0 in exact arithmetic).  The second
    visit is an empty row: as a distance weight, the residue kept rows
    stored only in feature 9 (and zero-weight features) ~1e-17 away from
    it in the dense computation, where the sparse one (B_R + B_j -
    overlap, rounded to 0 below TIE_RTOL of its terms) saw them tied with
    the other empty rows: other neighbours, weights 1.1e-2 apart.  Weights
    within rounding of 0 are 0 (estimates.residue)."""
    X, y, nominal_ = sparse_problem(seed, n=90)
    if seed == 16:
        first = relieff(X.toarray(), y, nominal_, variant="drelieff",
                        k_nearest=4, n_iterations=1).weights
        assert 0 < first[9] < estimates.residue(2, 90)
    expected = reference_relief(X.toarray(), y, nominal_, variant=variant,
                                k=4)
    for data in (X, X.toarray()):
        w = relieff(data, y, nominal_, variant=variant, k_nearest=4).weights
        np.testing.assert_allclose(w, expected, rtol=1e-10, atol=1e-12)


def test_neighbourhood_factors():
    """P(C) / (1 - P(class(R))) from class counts: exactly 1 for two
    classes; rank weights exp(-(r / sigma)^2)."""
    y = np.array([0, 0, 0, 1, 1, 2, 2, 2, 2, 2], float)
    prep = prepare(np.arange(20.0).reshape(10, 2), y, None, False)
    hood = base.neighbourhood(prep, False, "per_class", 3, True, 2.0)
    assert hood.mode == neighbours.MODE_PER_CLASS and hood.n_groups == 3
    np.testing.assert_allclose(hood.class_factor[0], [3 / 7, 2 / 7, 5 / 7])
    np.testing.assert_allclose(hood.rank_weights,
                               np.exp(-(np.arange(3) / 2.0) ** 2))
    two = prepare(np.arange(8.0).reshape(4, 2), [0, 1, 1, 0], None, False)
    assert base.neighbourhood(two, False, "any", 1, False, 2.0) \
        .class_factor[0, 1] == 1.0


def test_radius_updates_count_past_the_int16_range():
    """A radius rule's nominal mismatches are counted in int16 over
    COUNT_ROWS rows at a time and moved to int64: a bucket of 70,001 rows
    that differ from R in every nominal feature (one visit at a time,
    ``_update_in_runs``, and a block of visits, ``update_block``) counts
    them all, and the numeric diffs along."""
    from orangecontrib.relief.core.contract import updates
    n = 70_001
    num = np.zeros((n + 1, 1))
    num[1:, 0] = 0.5
    nom = np.zeros((n + 1, 2), np.int8)
    nom[1:] = [1, 2]                    # row 0 is R: every other row differs
    chosen = np.arange(1, n + 1)
    coef = np.full(n, 0.25)
    upd = np.zeros(3)
    updates._update_in_runs(0, chosen, coef, np.array([n, n]), num, nom, upd)
    assert upd.tolist() == [0.25 * 0.5 * n, 0.25 * n, 0.25 * n]
    # the block: visit 0 (R = row 0) has every other row in bucket 1,
    # visit 1 (R = row 1) has row 0 in bucket 0 and no other
    rows = np.array([0, 1])
    codes = np.full((2, n + 1), -1, np.int32)
    codes[0, 1:] = 1
    codes[1, 0] = 0
    shares = np.array([[0.0, 0.25], [-1.0, 0.0]])
    acc_num = np.empty((2, 2, 1))
    acc_nom = np.empty((2, 2, 2), np.int64)
    counts = np.empty(acc_nom.shape, np.int16)
    upd = np.zeros((2, 3))
    updates.update_block(rows, codes, shares, num, nom, acc_num, acc_nom,
                         counts, upd)
    assert upd[0].tolist() == [0.25 * 0.5 * n, 0.25 * n, 0.25 * n]
    assert upd[1].tolist() == [-0.5, -1.0, -1.0]


def test_relief_d_loops_count_no_references_and_look_up(monkeypatch):
    """The CPU's loops that call RELIEF-D's functions once per term are
    compiled without reference counts (``diffs.NO_REFCOUNTS``: with them a
    term cost 36 ns instead of 8, and two threads contended), and give the
    numbers of ``diff_sum`` and ``column_diff`` in plain Python: each
    distance of a row, with E|X - v| searched for or looked up
    (``prepare.Expectations``), and each feature's update, searched for or
    looked up, bit for bit, and STIR's sums.
    Data whose lookup would pass EXPECTATIONS_MAX_BYTES searches: the same
    weights."""
    from orangecontrib.relief.core.contract import (diffs, distances,
                                                    pair_sums, updates)
    from orangecontrib.relief.core.contract import prepare as prepare_module
    from orangecontrib.relief.core.backends.compiled import npdr_kernels
    for loop in (distances._missing_distances, updates._missing_update,
                 pair_sums._missing_pair_sums, npdr_kernels.column_diffs):
        assert loop.targetoptions["_nrt"] is False, loop
    rng = np.random.default_rng(8)
    X = rng.random((40, 6))
    X[:, 4:] = rng.integers(0, 3, (40, 2))
    X[rng.random(X.shape) < 0.2] = np.nan
    y = rng.integers(0, 3, 40)
    prep = prepare(X, y, [False] * 4 + [True] * 2, False)
    data = prep.data(False)
    t, w = data.missing, np.ones(6)
    lookup = prepare_module.looked_up(prep)
    assert lookup.values.shape == (40, 4, 3)
    for tables in (data, prep.data(False, lookup)):
        row = np.empty(40)
        distances.distance_row(3, tables, w, False, row, 0, 40)
        expected = [distances.diff_sum(3, j, data.num, data.nom, data.group,
                                       *t, w, False, 0, 1)
                    for j in range(40)]
        assert row.tolist() == expected
    chosen, coef = np.array([0, 7, 9]), np.array([-0.5, 0.25, 0.25])
    for tables in (data, prep.data(False, lookup)):
        upd = np.zeros(6)
        updates.update(3, chosen, coef, 3, tables, False, np.zeros(0), upd,
                       np.zeros(0, np.int64))
        assert upd.tolist() == [
            sum(c * diffs.column_diff(f, 3, j, data.num, data.nom,
                                      data.group, *t)
                for j, c in zip(chosen, coef))
            for f in range(6)]
    sums = []
    for tables in (data, prep.data(False, lookup)):
        sums.append(np.empty(pair_sums.width(6)))
        pair_sums.add_pair_sums(3, chosen, coef, 3, tables, sums[-1])
    assert sums[0].tolist() == sums[1].tolist()
    assert sums[0][:6].tolist() == [
        0.5 * diffs.column_diff(f, 3, 0, data.num, data.nom, data.group, *t)
        for f in range(6)]
    weights = relieff(X, y, [False] * 4 + [True] * 2).weights
    monkeypatch.setattr(prepare_module, "EXPECTATIONS_MAX_BYTES",
                        40 * 4 * 3 * 8 - 1)
    assert prepare_module.looked_up(prep).values.shape[0] == 0
    assert relieff(X, y, [False] * 4 + [True] * 2).weights.tolist() \
        == weights.tolist()
