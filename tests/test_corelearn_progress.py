"""Progress and cancel of CORElearn's estimators computed on top of the
engine (issue 40, item 3: ``best_k``, ``myopic``, ``merit``, ``costs``'
``cost_sensitive`` and ``sampled``, ``mse``'s ``with_mse``): the engine's
contract (``progress(fraction)``, 0 first, monotone, 1 last; a callback
that raises cancels the run) through ``corelearn.run``, the scorer and the
widgets' task; the weights do not depend on the callback."""
import json
import os
from types import SimpleNamespace

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

from orangecontrib.relief.core.backends.runtime import (in_batches,
                                                        progress_part)
from orangecontrib.relief.corelearn import ESTIMATORS, names, run
from orangecontrib.relief.scoring import CORElearn
from orangecontrib.relief.widgets import relieftask

ON_TOP = [name for name in names(available=True)
          if ESTIMATORS[name].options is None]


class Stop(Exception):
    """The test's cancel."""


# the tables of test_corelearn_estimators (60 x 5 numeric; three classes,
# a numeric target): the engine's kernels its tests compile serve these
with open(os.path.join(os.path.dirname(__file__), "data",
                       "corelearn_golden.json")) as _file:
    TABLES = json.load(_file)["tables"]


def data(regression):
    """A tiny table, its class or numeric target; with a class, a nominal
    feature in place of the last (its values in thirds: 0, 1, 2; the
    regression table, RReliefFwithMSE's engine run, as it is)."""
    entry = TABLES["tie-free (60 x 5, numeric)" if regression
                   else "tie-free (60 x 5, 3 classes)"]
    X, y = np.array(entry["X"]), np.array(entry["y"], dtype=float)
    if regression:
        return X, y, None
    last = X[:, -1]
    X[:, -1] = np.digitize(last, np.quantile(last, [1 / 3, 2 / 3]))
    return X, y, np.array([False] * (X.shape[1] - 1) + [True])


def test_the_estimators_on_top_are_those_listed():
    assert set(ON_TOP) == {
        "ReliefFbestK", "MyopicReliefF", "ReliefFmerit", "ReliefFexpC",
        "ReliefFavgC", "ReliefFpe", "ReliefFpa", "ReliefFsmp",
        "ReliefKukar", "RReliefFbestK", "RReliefFwithMSE"}


@pytest.mark.parametrize("name", ON_TOP)
def test_progress_is_monotone_from_0_to_1_and_leaves_the_weights(name):
    regression = ESTIMATORS[name].regression
    X, y, nominal = data(regression)
    options = dict(n_iterations=30) if ESTIMATORS[name].sampled else {}
    plain = run(name, X, y, nominal, regression, **options)
    values = []
    reported = run(name, X, y, nominal, regression, progress=values.append,
                   **options)
    assert_array_equal(reported.weights, plain.weights)
    assert values[0] == 0.0 and values[-1] == 1.0
    assert np.all(np.diff(values) >= 0), values
    assert any(0 < v < 1 for v in values), values    # (the bar moves)


@pytest.mark.parametrize("name", ON_TOP)
def test_a_raising_callback_cancels_the_run(name):
    regression = ESTIMATORS[name].regression
    X, y, nominal = data(regression)
    seen = []

    def cancel(fraction):
        seen.append(fraction)
        if fraction > 0:
            raise Stop

    with pytest.raises(Stop):
        run(name, X, y, nominal, regression, progress=cancel)
    assert seen[-1] < 1         # (stopped before the end)


def test_in_batches_and_progress_part():
    values = []
    assert list(in_batches(range(5), values.append)) == list(range(5))
    assert values[0] == 0 and values[-1] == 1
    assert list(in_batches(range(3), None)) == [0, 1, 2]
    values = []
    assert not list(in_batches([], values.append))
    assert values == [0.0, 1.0]
    assert progress_part(None, 0, 1) is None
    values = []
    part = progress_part(values.append, 0.5, 0.9)
    part(0.0)
    part(0.5)
    part(1.0)
    assert values == [0.5, 0.7, 0.9]


def table(regression):
    X, y, _ = data(regression)
    attributes = [ContinuousVariable(f"x{j}") for j in range(4)] + [
        ContinuousVariable("x4") if regression
        else DiscreteVariable("n", values=("a", "b", "c"))]
    target = ContinuousVariable("y") if regression \
        else DiscreteVariable("y", values=("0", "1", "2"))
    return Table.from_numpy(Domain(attributes, target), X, y)


def test_the_scorer_reports_progress_and_is_cancelled():
    scorer = CORElearn("ReliefFmerit")
    data_ = table(False)
    values = []
    result = scorer.score_table(data_, progress=values.append)
    assert values[0] == 0 and values[-1] == 1
    assert_array_equal(result.weights, scorer.score_table(data_).weights)

    def cancel(fraction):
        if fraction > 0:
            raise Stop
    with pytest.raises(Stop):
        scorer.score_table(data_, progress=cancel)


class State:
    """A stand-in for the widgets' ``TaskState``: records the progress,
    requests the interruption once it passed ``stop_at`` percent."""

    def __init__(self, stop_at=None):
        self.values, self.stop_at = [], stop_at

    def set_progress_value(self, value):
        self.values.append(value)

    def is_interruption_requested(self):
        return self.stop_at is not None and self.values[-1] > self.stop_at

    def set_status(self, text):
        pass

    def set_partial_result(self, part):
        pass


@pytest.mark.parametrize("name", ["RReliefFwithMSE", "RReliefFbestK"])
def test_the_widgets_task_reports_progress_and_cancels(name):
    data_ = table(True)
    state = State()
    out = relieftask.run(data_, CORElearn(name), None, None, state)
    assert out.result is not None
    assert any(0 < v < 100 for v in state.values), state.values
    assert state.values[-1] == 100
    assert state.values == sorted(state.values)
    state = State(stop_at=0)
    with pytest.raises(relieftask.Cancelled):
        relieftask.run(data_, CORElearn(name), None,
                       SimpleNamespace(test=None, n_permutations=0,
                                       n_resamples=0), state)
    assert state.values[-1] < 100
