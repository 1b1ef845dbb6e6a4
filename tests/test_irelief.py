"""I-RELIEF (core/irelief.py) against the loop-by-loop reading of Sun (2007)
in irelief_reference.py, one case by hand, and its stopping rule."""
import math
import warnings
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from irelief_reference import reference_irelief
from orangecontrib.relief.core import irelief as irelief_module
from orangecontrib.relief.core.irelief import irelief, soft_margin
from orangecontrib.relief.core.messages import ReliefWarning
from orangecontrib.relief.core.contract.prepare import prepare
from problems import random_problem

# The hand case: two numeric features of range 1, classes 0 (A, B) and 1
# (C, D = C):
#        f1 f2 class
#   A    0  0  0
#   B    0  1  0
#   C    1  0  1
#   D    1  0  1
# w^(0) = (1/2, 1/2), so every distance is 0, 1/2 or 1; sigma = 1 and
# q = f(1/2) = e^{-1/2}, f(1) = q^2, f(0) = 1.
#   A: hit B at 1/2; misses C, D at 1/2: alpha = 1/2 each (eq. 8), beta_B = 1
#      (eq. 9), gamma_A = 1 - 2q / 3q = 1/3 (eq. 10);
#      margin = 1/3 ((1, 0) - (0, 1)) = (1/3, -1/3).
#   B: hit A at 1/2; misses C, D at 1: gamma_B = 1 - 2q^2 / (q + 2q^2)
#      = 1 / (1 + 2q); margin = gamma_B ((1, 1) - (0, 1)) = (gamma_B, 0).
#   C: hit D at 0; misses A at 1/2, B at 1: alpha_A = 1 / (1 + q),
#      alpha_B = q / (1 + q); gamma_C = 1 - (q + q^2) / (1 + q + q^2);
#      margin = gamma_C ((1, q / (1 + q)) - (0, 0)).   D: as C.
# nu = (1/4) (1/3 + gamma_B + 2 gamma_C, -1/3 + 2 gamma_C q / (1 + q))
# with q = 0.606531, q^2 = 0.367879: gamma_B = 0.451863, gamma_C = 1 -
# 0.974410 / 1.974410 = 0.506480, so nu = (1/4) (1.798156, 0.049101): both
# positive, and w^(1) = nu / ||nu||_2 = (1.798156, 0.049101) / 1.798826
# = (0.999627, 0.027296).
HAND_X = np.array([[0, 0], [0, 1], [1, 0], [1, 0]], dtype=float)
HAND_Y = np.array([0, 0, 1, 1], dtype=float)


def hand_weights():
    q = math.exp(-0.5)
    gamma_b = 1 / (1 + 2 * q)
    gamma_c = 1 - (q + q * q) / (1 + q + q * q)
    nu = np.array([1 / 3 + gamma_b + 2 * gamma_c,
                   -1 / 3 + 2 * gamma_c * q / (1 + q)]) / 4
    return nu / np.linalg.norm(nu)


def test_hand_case_first_iteration():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReliefWarning)   # 1 iteration
        result = irelief(HAND_X, HAND_Y, sigma=1.0, max_iterations=1)
    np.testing.assert_allclose(result.weights, hand_weights(), rtol=0,
                               atol=1e-14)
    np.testing.assert_allclose(result.weights, [0.999627, 0.027296],
                               atol=1e-6)
    np.testing.assert_allclose(result.trace[0], [0.5, 0.5], atol=0)
    expected, _, _ = reference_irelief(HAND_X, HAND_Y, [False, False],
                                       sigma=1.0, max_iterations=1)
    np.testing.assert_allclose(result.weights, expected, atol=1e-14)


def test_hand_case_one_instance_margin():
    """A's margin and gamma (eq. 10) as the comment above computes them."""
    data = prepare(HAND_X, HAND_Y).data(False)
    upd = np.zeros(2)
    gamma = soft_margin(0, data, np.array([0.5, 0.5]), 1.0, True,
                        np.empty(4), np.empty(4, np.int64), np.empty(4),
                        np.zeros(0), upd, np.zeros(0))
    assert gamma == pytest.approx(1 / 3, abs=1e-15)
    np.testing.assert_allclose(upd, [1 / 3, -1 / 3], atol=1e-15)


CASES = {
    "numeric": dict(seed=1, n=20, a=4, n_classes=2, missing=0.0, ties=False,
                    nominal=False),
    "nominal": dict(seed=2, n=20, a=5, n_classes=2, missing=0.0, ties=True,
                    nominal=True),
    "mixed, missing, 3 classes": dict(seed=3, n=24, a=5, n_classes=3,
                                      missing=0.15, ties=True,
                                      nominal=None),
    "numeric, missing, 4 classes": dict(seed=4, n=22, a=4, n_classes=4,
                                        missing=0.1, ties=False,
                                        nominal=False),
}


def case_data(seed, n, a, n_classes, missing, ties, nominal):
    X, y, mask = random_problem(seed, n=n, a=a, n_classes=n_classes,
                                missing=missing, ties=ties)
    if nominal is not None:
        mask = np.full(a, nominal)
        if nominal:
            X = np.where(np.isnan(X), np.nan, np.floor(X) % 3)
    # a class that the first two features tell, one label in ten at random
    rng = np.random.default_rng(seed)
    signal = np.nan_to_num(X[:, 0]) + np.nan_to_num(X[:, 1])
    y = np.digitize(signal, np.quantile(signal, np.linspace(
        0, 1, n_classes + 1)[1:-1])).astype(float)
    flip = rng.random(n) < 0.1
    y[flip] = rng.integers(0, n_classes, flip.sum())
    return X, y, mask


@pytest.mark.filterwarnings("ignore:I-RELIEF did not converge")
@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("sigma, inliers", [(0.5, True), (0.2, False)])
@pytest.mark.parametrize("damping", [None, "auto", 0.3])
def test_equals_reference(name, sigma, inliers, damping):
    """Sun's iteration (damping=None) as the paper writes it; a damped one
    (a fixed lambda, or the lambda_t that "auto" chose, replayed) with the
    same damped step written out."""
    X, y, nominal = case_data(**CASES[name])
    result = irelief(X, y, nominal, sigma=sigma, max_iterations=6,
                     tolerance=1e-4, inliers=inliers, damping=damping)
    weights, trace, changes = reference_irelief(
        X, y, nominal, sigma=sigma, max_iterations=6, tolerance=1e-4,
        inliers=inliers,
        damping=result.damping if damping == "auto" else damping)
    assert len(result.damping) == result.iterations
    if damping is None:
        np.testing.assert_array_equal(result.damping, 1.0)
    assert result.trace.shape == trace.shape
    np.testing.assert_allclose(result.trace, trace, rtol=0, atol=1e-10)
    np.testing.assert_allclose(result.weights, weights, rtol=0, atol=1e-10)
    np.testing.assert_allclose(result.changes, changes, rtol=0, atol=1e-10)


@pytest.mark.filterwarnings("ignore:I-RELIEF did not converge")
@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("pairs", [True, False])
def test_both_ways_of_summing_the_margins_equal_reference(monkeypatch, name,
                                                          pairs):
    """One margin at a time, or each pair once with both coefficients
    (``by_pairs``; dense data without missing values: the pairs' data sets
    here have none), with 23 rows: chunks and popcount's blocks of four
    with a remainder, and equal weights (the first iteration) counted by
    popcount where the features are nominal."""
    monkeypatch.setattr(irelief_module, "PAIRS", pairs)
    X, y, nominal = case_data(**dict(CASES[name], n=23, missing=0.0))
    result = irelief(X, y, nominal, sigma=0.5, max_iterations=4,
                     tolerance=1e-4, damping=None)
    _, trace, _ = reference_irelief(X, y, nominal, sigma=0.5,
                                    max_iterations=4, tolerance=1e-4)
    np.testing.assert_allclose(result.trace, trace, rtol=0, atol=1e-10)


@pytest.mark.filterwarnings("ignore:I-RELIEF did not converge")
def test_pairs_do_not_depend_on_threads_or_batches(monkeypatch):
    monkeypatch.setattr(irelief_module, "PAIRS", True)
    X, y, nominal = case_data(seed=9, n=75, a=6, n_classes=3, missing=0.0,
                              ties=True, nominal=None)
    one = irelief(X, y, nominal, n_jobs=1, max_iterations=3).trace
    calls = []
    monkeypatch.setattr(irelief_module, "BATCH_TERMS", 1)   # CHUNK a batch
    batched = irelief(X, y, nominal, n_jobs=2, max_iterations=3,
                      progress=calls.append)
    np.testing.assert_array_equal(batched.trace, one)
    # 5 batches (blocks of rows, each with its two passes) per iteration,
    # progress rising to 1
    assert len(calls) == 2 + 3 * (5 + 1)
    assert np.all(np.diff(calls) >= 0) and calls[-1] == 1.0
    monkeypatch.setattr(irelief_module, "PAIRS", False)
    np.testing.assert_allclose(
        irelief(X, y, nominal, max_iterations=3).trace, one, rtol=0,
        atol=1e-14)


@pytest.mark.filterwarnings("ignore:I-RELIEF did not converge")
@pytest.mark.parametrize("inliers", [True, False])
def test_pairs_with_an_instance_alone_in_its_class(monkeypatch, inliers):
    """An instance without hits adds no margin (inliers) or only its
    misses' part; by pairs its kernel values are still read (times 0)."""
    monkeypatch.setattr(irelief_module, "PAIRS", True)
    X, y, nominal = case_data(seed=10, n=21, a=4, n_classes=2, missing=0.0,
                              ties=True, nominal=None)
    y = y.copy()
    y[5] = 2
    result = irelief(X, y, nominal, sigma=0.5, max_iterations=3,
                     inliers=inliers, damping=None)
    _, trace, _ = reference_irelief(X, y, nominal, sigma=0.5,
                                    max_iterations=3, inliers=inliers)
    np.testing.assert_allclose(result.trace, trace, rtol=0, atol=1e-10)


def test_by_pairs_cost_model():
    """Pairs where half the update (every feature) outweighs half an exp
    more: GAMETES' 1,000 SNPs, 100 continuous features, not 20 SNPs."""
    by_pairs = irelief_module.by_pairs
    assert by_pairs(1000) and by_pairs(100)
    assert not by_pairs(20) and not by_pairs(50)


def xor_data(seed=17, n=60, a=4):
    """SNPs 0, 1, 2 and a class (x0 + x1) mod 2 (pure epistasis): with
    sigma = 2, seed 17 sends Sun's iteration into a slowly fading
    oscillation between the two relevant SNPs."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, (n, a)).astype(float)
    return X, (X[:, 0] + X[:, 1]) % 2, np.ones(a, bool)


def test_auto_damping_ends_an_oscillation():
    X, y, nominal = xor_data()
    with pytest.warns(ReliefWarning, match=r"did not converge in 40 "
                      r"iterations \(last change 0\.\d+ >= tolerance "):
        sun = irelief(X, y, nominal, max_iterations=40, damping=None)
    # every step turns back, and shrinks by less than 3 % per iteration
    steps = np.diff(sun.trace, axis=0)
    assert (np.sum(steps[1:] * steps[:-1], axis=1) < 0).all()
    assert (sun.changes[2:] / sun.changes[1:-1] > 0.97).all()
    result = irelief(X, y, nominal, max_iterations=40)
    assert result.converged and result.iterations == 5
    # undamped until two turned-back residuals in a row, then lambda = 1/2;
    # the converging step is whole
    np.testing.assert_array_equal(result.damping, [1, 1, 0.5, 0.5, 1])
    # a fixed point of Sun's map: one more undamped iteration from it moves
    # it by less than the tolerance, as for an undamped run; the one that
    # Sun's iteration reaches after some 150 iterations
    _, _, changes = reference_irelief(X, y, nominal, max_iterations=1,
                                      start=result.weights)
    assert changes[0] < 1e-3
    slow = irelief(X, y, nominal, damping=None)
    assert slow.converged and slow.iterations > 100
    np.testing.assert_allclose(result.weights, slow.weights, atol=2e-3)


GAMETES = (Path(__file__).resolve().parents[2] / "shared" / "data"
           / "GAMETES_Epistasis_2-Way_20atts_0.4H_EDM-1_1.tsv")


@pytest.mark.skipif(not GAMETES.exists(), reason="no shared GAMETES data")
def test_auto_damping_ends_the_two_cycle_on_gametes():
    """The head-to-head's GAMETES (doc/redundancy.md): Sun's iteration
    swings between P1 and P2 for ever, the damped one converges with both
    on top."""
    matrix = np.loadtxt(GAMETES, delimiter="\t", skiprows=1)[::2]
    X, y, nominal = matrix[:, :-1], matrix[:, -1], np.ones(20, bool)
    with pytest.warns(ReliefWarning, match="did not converge in 60"):
        sun = irelief(X, y, nominal, max_iterations=60, damping=None)
    # a 2-cycle that grows: every other iterate near the same point, one
    # of P1 and P2 far above the other, the change growing
    np.testing.assert_allclose(sun.trace[-1], sun.trace[-3], atol=0.05)
    assert abs(sun.trace[-1][18] - sun.trace[-1][19]) > 0.4
    assert sun.changes[-1] > 3 * sun.changes[10]
    result = irelief(X, y, nominal, max_iterations=60)
    assert result.converged and result.iterations < 15
    assert sorted(np.argsort(-result.weights)[:2]) == [18, 19]    # P1, P2
    assert abs(result.weights[18] - result.weights[19]) < 0.05


@pytest.mark.filterwarnings("ignore:I-RELIEF did not converge")
def test_damping_that_cannot_end_an_oscillation_says_so():
    X, y, nominal = xor_data()
    with pytest.warns(ReliefWarning, match="did not converge in 3 "):
        short = irelief(X, y, nominal, max_iterations=3, damping=0.5)
    assert not short.converged
    np.testing.assert_array_equal(short.damping, 0.5)
    # "auto" names how far it damped
    monkey = irelief_module.MIN_DAMPING
    try:
        irelief_module.MIN_DAMPING = 0.5
        with pytest.warns(ReliefWarning, match="damped down to steps of "
                          "0.5"):
            irelief(X, y, nominal, max_iterations=4, tolerance=1e-9)
    finally:
        irelief_module.MIN_DAMPING = monkey


def test_auto_damping_leaves_a_converging_run_alone():
    X, y, nominal = case_data(**CASES["mixed, missing, 3 classes"])
    auto = irelief(X, y, nominal, tolerance=1e-6)
    sun = irelief(X, y, nominal, tolerance=1e-6, damping=None)
    np.testing.assert_array_equal(auto.trace, sun.trace)
    np.testing.assert_array_equal(auto.damping, 1.0)


def test_constant_and_empty_features_take_no_part():
    X, y, nominal = case_data(**CASES["numeric"])
    base = irelief(X, y, nominal).weights
    wider = np.column_stack([X, np.full(len(X), 3.0), np.full(len(X), np.nan)])
    with pytest.warns(ReliefWarning, match="no known value"):
        result = irelief(wider, y, np.append(nominal, [False, False]))
    np.testing.assert_array_equal(result.weights[:-2], base)
    assert result.weights[-2] == 0 and np.isnan(result.weights[-1])
    weights, _, _ = reference_irelief(wider, y, np.append(nominal, [0, 0]))
    np.testing.assert_allclose(result.weights, weights, atol=1e-10)


def test_converges_and_reports_it():
    X, y, nominal = case_data(**CASES["mixed, missing, 3 classes"])
    result = irelief(X, y, nominal, tolerance=1e-6)
    assert result.converged
    assert result.changes[-1] < 1e-6 <= result.changes[-2]
    assert result.iterations == len(result.changes) == len(result.trace) - 1
    np.testing.assert_array_equal(result.trace_steps,
                                  np.arange(result.iterations + 1))
    assert np.linalg.norm(result.weights) == pytest.approx(1.0)
    assert (result.weights >= 0).all()
    with pytest.warns(ReliefWarning, match="did not converge in 2"):
        short = irelief(X, y, nominal, tolerance=1e-6, max_iterations=2)
    assert not short.converged and short.iterations == 2
    np.testing.assert_array_equal(short.trace, result.trace[:3])


def test_weights_do_not_depend_on_threads_or_batches(monkeypatch):
    X, y, nominal = random_problem(5, n=70, a=6, missing=0.05)
    one = irelief(X, y, nominal, n_jobs=1).weights
    calls = []
    monkeypatch.setattr(irelief_module, "BATCH_TERMS", 1)   # CHUNK a batch
    batched = irelief(X, y, nominal, n_jobs=2, progress=calls.append)
    np.testing.assert_array_equal(batched.weights, one)
    # progress within iterations (5 batches each), rising to 1
    assert calls[0] == 0.0 and calls[-1] == 1.0
    assert np.all(np.diff(calls) >= 0)
    assert 0 < calls[1] < 1 / 100


def test_cancel_within_an_iteration(monkeypatch):
    X, y, nominal = random_problem(6, n=70, a=4)
    monkeypatch.setattr(irelief_module, "BATCH_TERMS", 1)
    seen = []

    def progress(fraction):
        seen.append(fraction)
        if len(seen) == 3:
            raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        irelief(X, y, nominal, progress=progress)
    assert seen[-1] < 1 / 100       # still in the first iteration


def test_sparse_equals_dense():
    X, y, nominal = case_data(**CASES["numeric"])
    X[X < 0.3] = 0.0
    np.testing.assert_array_equal(
        irelief(sp.csr_matrix(X), y, nominal).weights,
        irelief(X, y, nominal).weights)


def test_copies_and_row_order():
    X, y, nominal = case_data(**CASES["numeric"])
    copied = irelief(np.column_stack([X, X[:, 0]]), y,
                     np.append(nominal, False)).weights
    assert copied[0] == pytest.approx(copied[-1], abs=1e-15)
    order = np.random.default_rng(0).permutation(len(y))
    np.testing.assert_allclose(irelief(X[order], y[order], nominal).weights,
                               irelief(X, y, nominal).weights, atol=1e-14)


def test_one_class_gives_zeros():
    X, y, nominal = case_data(**CASES["numeric"])
    with pytest.warns(ReliefWarning, match="one class"):
        result = irelief(X, np.zeros(len(y)), nominal)
    np.testing.assert_array_equal(result.weights, 0.0)


@pytest.mark.parametrize("options, message", [
    (dict(sigma=0), "sigma, I-RELIEF's kernel width"),
    (dict(sigma=np.inf), "sigma"),
    (dict(max_iterations=0), "max_iterations"),
    (dict(tolerance=-1), "tolerance"),
    (dict(tolerance="1e-3"), "tolerance"),
    (dict(damping=0), "damping, the fraction of each I-RELIEF step"),
    (dict(damping=1.5), "damping"),
    (dict(damping="on"), "damping"),
    (dict(damping=True), "damping"),
])
def test_options_are_checked(options, message):
    X, y, nominal = case_data(**CASES["numeric"])
    with pytest.raises(ValueError, match=message):
        irelief(X, y, nominal, **options)


def test_regression_is_refused():
    from orangecontrib.relief.core.options import check_irelief_options
    with pytest.raises(ValueError, match="regression=True"):
        check_irelief_options(0.5, 10, 1e-3, regression=True)


# ---------------------------------------------------------------------------
# I-RELIEF as a variant of the engine and as an Orange scorer

def test_relieff_variant_irelief_is_irelief():
    from orangecontrib.relief.core import relieff
    X, y, nominal = case_data(**CASES["mixed, missing, 3 classes"])
    seen = []
    result = relieff(X, y, nominal, variant="irelief", sigma=1.0,
                     tolerance=1e-5, max_iterations=50, progress=seen.append)
    expected = irelief(X, y, nominal, sigma=1.0, tolerance=1e-5,
                       max_iterations=50)
    np.testing.assert_array_equal(result.trace, expected.trace)
    assert result.iterations == expected.iterations and seen[-1] == 1.0


@pytest.mark.parametrize("options, message", [
    (dict(neighbours="multisurf"), "neighbours has no meaning"),
    (dict(weight_by_distance=True), "weight_by_distance has no meaning"),
    (dict(n_iterations=5), "n_iterations has no meaning"),
    (dict(compat="weka"), "compat has no meaning"),
    (dict(regression=True), "regression=True"),
    (dict(max_iterations=0), "max_iterations"),
])
def test_relieff_variant_irelief_refuses_what_it_has_not(options, message):
    from orangecontrib.relief.core import relieff
    X, y, nominal = case_data(**CASES["numeric"])
    with pytest.raises(ValueError, match=message):
        relieff(X, y, nominal, variant="irelief", **options)


def test_no_visits_to_plan():
    from orangecontrib.relief.core.engine import start
    X, y, nominal = case_data(**CASES["numeric"])
    with pytest.raises(ValueError, match="no visits to plan"):
        start(X, y, nominal, variant="irelief")


def test_orange_scorer():
    from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
    from orangecontrib.relief import IReliefF, Iter, VLS
    X, y, nominal = case_data(**CASES["numeric"])
    domain = Domain([ContinuousVariable(f"x{i}") for i in range(X.shape[1])],
                    DiscreteVariable("class", values=("0", "1")))
    table = Table.from_numpy(domain, X, y)
    scorer = IReliefF(sigma=1.0, tolerance=1e-5)
    result = scorer.score_table(table)
    np.testing.assert_array_equal(
        result.weights, irelief(X, y, nominal, sigma=1.0,
                                tolerance=1e-5).weights)
    assert scorer.name == "I-RELIEF" and result.converged
    np.testing.assert_array_equal(scorer(table), result.weights)
    np.testing.assert_array_equal(VLS(scorer, 2, 3, 0)(table).shape, (4,))
    with pytest.raises(ValueError, match="distance_weights has no meaning"):
        Iter(scorer)(table)
    numeric = Table.from_numpy(Domain(domain.attributes,
                                      ContinuousVariable("t")), X, y)
    with pytest.raises(ValueError, match="categorical target"):
        scorer(numeric)
    with pytest.raises(ValueError, match="sigma"):
        IReliefF(sigma=-1)


def test_command_line(capsys, tmp_path):
    from orangecontrib.relief.cli import main
    from orangecontrib.relief.datasets import corral
    path = str(tmp_path / "corral.tab")
    corral().save(path)
    assert main(["score", path, "--method", "irelief", "--sigma", "1",
                 "--tolerance", "1e-4", "--format", "csv"]) == 0
    out = capsys.readouterr().out
    expected = irelief(corral().X, corral().Y, np.ones(6, bool), sigma=1.0,
                       tolerance=1e-4).weights
    rows = [line.split(",") for line in out.strip().splitlines()[1:]]
    names = [v.name for v in corral().domain.attributes]
    for row in rows:
        weight = float(row[-1])
        assert weight == pytest.approx(expected[names.index(row[-2])],
                                       abs=1e-4)
    assert main(["score", path, "--method", "irelief", "--k", "3",
                 "--neighbours", "surf"]) == 2
    assert "--neighbours has no meaning" in capsys.readouterr().err
    assert main(["score", path, "--max-iterations", "3"]) == 2
    assert "use it with --method irelief" in capsys.readouterr().err


def xor_table_file(tmp_path):
    """``xor_data`` as a .tab file (nominal SNPs, a nominal class)."""
    from Orange.data import DiscreteVariable, Domain, Table
    X, y, _ = xor_data()
    domain = Domain([DiscreteVariable(f"x{i}", values=("0", "1", "2"))
                     for i in range(X.shape[1])],
                    DiscreteVariable("class", values=("0", "1")))
    path = str(tmp_path / "xor.tab")
    Table.from_numpy(domain, X, y).save(path)
    return path, Table(path)


def cli_weights(main, capsys, argv):
    """The weights ``score ... --format csv`` prints, by feature name."""
    assert main(argv + ["--format", "csv"]) == 0
    rows = [line.split(",")
            for line in capsys.readouterr().out.strip().splitlines()[1:]]
    return {row[-2]: float(row[-1]) for row in rows}


@pytest.mark.filterwarnings("ignore:I-RELIEF did not converge")
def test_damping_reaches_the_engine_from_every_entry_point(tmp_path,
                                                           capsys):
    """On the oscillating XOR data, damping=None (Sun's iteration) from the
    engine, the scorer and the command line gives Sun's undamped trace,
    not the default's damped one; a fixed lambda gives its steps."""
    from orangecontrib.relief import IReliefF
    from orangecontrib.relief.cli import main
    from orangecontrib.relief.core import relieff
    X, y, nominal = xor_data()
    sun = irelief(X, y, nominal, max_iterations=10, damping=None)
    auto = irelief(X, y, nominal, max_iterations=10)
    half = irelief(X, y, nominal, max_iterations=10, damping=0.5)
    assert (sun.damping == 1).all() and (auto.damping < 1).any()
    assert np.abs(sun.weights - auto.weights).max() > 0.1
    path, table = xor_table_file(tmp_path)
    for damping, expected in ((None, sun), ("auto", auto), (0.5, half)):
        engine = relieff(X, y, nominal, variant="irelief",
                         max_iterations=10, damping=damping)
        np.testing.assert_array_equal(engine.trace, expected.trace)
        np.testing.assert_array_equal(engine.damping, expected.damping)
        scorer = IReliefF(max_iterations=10, damping=damping)
        assert scorer.damping == damping
        scored = scorer.score_table(table)
        np.testing.assert_array_equal(scored.trace, expected.trace)
        np.testing.assert_array_equal(scored.damping, expected.damping)
    # the default is "auto"
    np.testing.assert_array_equal(
        relieff(X, y, nominal, variant="irelief", max_iterations=10).trace,
        auto.trace)
    np.testing.assert_array_equal(
        IReliefF(max_iterations=10).score_table(table).trace, auto.trace)
    names = [var.name for var in table.domain.attributes]
    argv = ["score", path, "--method", "irelief", "--max-iterations", "10"]
    for option, expected in ((["--damping", "none"], sun),
                             (["--damping", "NONE"], sun),
                             (["--damping", "auto"], auto), ([], auto),
                             (["--damping", "0.5"], half)):
        printed = cli_weights(main, capsys, argv + option)
        for name, weight in zip(names, expected.weights):
            assert printed[name] == pytest.approx(weight, abs=1e-4), option


@pytest.mark.parametrize("damping", [0, -0.5, 1.5, np.nan, "on", True])
def test_a_bad_damping_is_refused_by_every_entry_point(damping, tmp_path,
                                                       capsys):
    from orangecontrib.relief import IReliefF
    from orangecontrib.relief.cli import main
    from orangecontrib.relief.core import relieff
    from orangecontrib.relief.core.engine import relieff_options
    message = (r"damping, the fraction of each I-RELIEF step taken, must be "
               r"'auto' \(damp oscillations only\), None \(Sun's iteration\) "
               r"or a number in \(0, 1\]; got ")
    X, y, nominal = case_data(**CASES["numeric"])
    for call in (lambda: irelief(X, y, nominal, damping=damping),
                 lambda: relieff(X, y, nominal, variant="irelief",
                                 damping=damping),
                 lambda: relieff_options(variant="irelief", damping=damping),
                 lambda: IReliefF(damping=damping)):
        with pytest.raises(ValueError, match=message):
            call()
    path, _ = xor_table_file(tmp_path)
    text = "True" if damping is True else str(damping)
    assert main(["score", path, "--method", "irelief",
                 "--damping", text]) == 2
    assert "error: damping, the fraction of each I-RELIEF step taken" \
        in capsys.readouterr().err


def test_command_line_damping_is_irelief_s(tmp_path, capsys):
    from orangecontrib.relief.cli import main
    path, _ = xor_table_file(tmp_path)
    assert main(["score", path, "--damping", "none"]) == 2
    assert "--damping is I-RELIEF's; use it with --method irelief" \
        in capsys.readouterr().err


def test_scikit_learn_selector():
    from orangecontrib.relief.sklearn import ReliefFSelector
    X, y, nominal = case_data(**CASES["numeric"])
    selector = ReliefFSelector(variant="irelief", n_features_to_select=1,
                               sigma=1.0).fit(X, y)
    expected = irelief(X, y, nominal, sigma=1.0).weights
    np.testing.assert_array_equal(selector.feature_importances_, expected)
    assert selector.get_support().sum() == 1
    assert selector.get_support()[np.argmax(expected)]


def test_permutation_test_refits_irelief():
    from orangecontrib.relief.stats import TESTS
    X, y, nominal = case_data(**CASES["numeric"])
    test = TESTS["permutation"]
    assert test.unsupported(variant="irelief") is None
    assert TESTS["stir"].unsupported(variant="irelief") is not None
    result = test.run(X, y, nominal, n_permutations=3, variant="irelief",
                      sigma=1.0)
    np.testing.assert_array_equal(result.weights,
                                  irelief(X, y, nominal, sigma=1.0).weights)


@pytest.mark.filterwarnings("ignore:I-RELIEF did not converge")
def test_narrow_kernels_and_many_instances():
    """More instances than a chunk, against the reference; and a kernel so
    narrow that exp(-d / sigma) underflows: taken relative to each group's
    nearest instance, the weights stay finite and do not depend on the
    rows' order."""
    X, y, nominal = case_data(seed=7, n=100, a=3, n_classes=2,
                              missing=0.05, ties=False, nominal=None)
    result = irelief(X, y, nominal, sigma=0.3, max_iterations=2)
    weights, trace, _ = reference_irelief(X, y, nominal, sigma=0.3,
                                          max_iterations=2)
    np.testing.assert_allclose(result.trace, trace, rtol=0, atol=1e-12)
    order = np.random.default_rng(1).permutation(len(y))
    narrow = irelief(X, y, nominal, sigma=1e-4, max_iterations=2).weights
    np.testing.assert_allclose(
        irelief(X[order], y[order], nominal, sigma=1e-4,
                max_iterations=2).weights, narrow, atol=1e-12)
    assert np.isfinite(narrow).all() and np.linalg.norm(narrow) > 0.99
