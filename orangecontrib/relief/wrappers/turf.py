"""TuRF (Moore & White 2007): score, remove the lowest-scoring share of the
features, score the rest again, and so on.

Relief's neighbours are found with all features, so many irrelevant ones
drown the few that matter; removing the worst and re-scoring lets the
remaining distances see the relevant ones.  Every round removes
``round(remove * a)`` of the *original* number of features a (the paper's
a/n per iteration), never going below ``n_keep``; a feature's result is its
estimate in the last round it took part in, the survivors' the estimate of
the last round.  ``turf`` does it on arrays with the engine's options,
``TuRF`` wraps any Orange scorer (the add-on's, or Orange's own).
"""
import numpy as np
from Orange.data import Domain, Variable
from Orange.preprocess.score import Scorer

from ..core import relieff
from ..core.options import whole_number

__all__ = ["turf", "TuRF", "Wrapper", "columns_scorer", "table_columns_scorer"]


def _schedule(a, remove, rounds, n_keep):
    """(features removed per round, number of rounds)."""
    if not 0 < remove < 1:
        raise ValueError(f"remove must be a share of the features between 0 "
                         f"and 1 (e.g. 0.1); got {remove!r}.")
    if rounds is not None:
        whole_number(rounds, "rounds", otherwise="or None for 1 / remove")
    whole_number(n_keep, "n_keep")
    per_round = max(1, int(round(remove * a)))
    return per_round, rounds if rounds is not None else max(
        1, int(round(1 / remove)))


def _rounds(score, a, remove, rounds, n_keep, progress=None):
    """TuRF around ``score(columns) -> weights of those columns``: (weights,
    removed features worst first).  The first round always scores (with
    ``n_keep`` >= a it is the only one: TuRF is then one run of its
    scorer)."""
    per_round, n_rounds = _schedule(a, remove, rounds, n_keep)
    active = np.arange(a)
    last = np.full(a, np.nan)
    removed = []
    for step in range(n_rounds):
        if step and len(active) <= n_keep:
            break
        weights = np.asarray(score(active), dtype=float)
        last[active] = weights
        # the lowest first (NaN lowest); ties at the cut: the lower column
        order = sorted(range(len(active)), key=lambda p: (
            -np.inf if np.isnan(weights[p]) else weights[p], active[p]))
        drop = [active[p] for p in order[:max(0, min(per_round,
                                                     len(active) - n_keep))]]
        removed.extend(drop)
        active = np.array([f for f in active if f not in set(drop)],
                          dtype=int)
        if progress is not None:
            progress((step + 1) / n_rounds)
    return last, removed


def turf(X, y, nominal=None, *, remove=0.1, rounds=None, n_keep=1,
         progress=None, **relieff_options):
    """TuRF around the engine (``core.relieff`` with ``relieff_options``,
    e.g. ``neighbours="multisurf"``).

    Parameters
    ----------
    remove : float
        Share of the original features removed per round.
    rounds : int, optional
        Rounds at most; ``round(1 / remove)`` when None.
    n_keep : int
        Never fewer features than this.
    progress : callable(fraction), optional
        Called after every round; may raise to cancel.

    Returns
    -------
    weights : ndarray
        Each feature's estimate in the last round it took part in.
    removed : list of int
        The removed features, in the order of removal (worst first).
    """
    score = columns_scorer(X, y, nominal, relieff_options)
    return _rounds(score, X.shape[1], remove, rounds, n_keep, progress)


def columns_scorer(X, y, nominal, relieff_options):
    """score(columns) -> the engine's weights (``core.relieff`` with
    ``relieff_options``) of those columns of X alone: the core algorithm
    that TuRF, Iter and VLS rerun on parts of the data."""
    nominal = np.zeros(X.shape[1], bool) if nominal is None \
        else np.asarray(nominal, bool)

    def score(columns, **options):
        return relieff(X[:, columns], y, nominal[columns],
                       **relieff_options, **options).weights
    return score


def table_columns_scorer(scorer, data):
    """score(columns) -> the weights an Orange ``scorer`` gives those
    attributes of ``data`` alone (the class and metas kept)."""
    attributes = data.domain.attributes

    def score(columns):
        domain = Domain([attributes[c] for c in columns],
                        data.domain.class_vars, data.domain.metas)
        scores = scorer(data.transform(domain))
        return np.asarray(scores, dtype=float).reshape(-1)[:len(columns)]
    return score


class Wrapper(Scorer):
    """The shape of an Orange scorer around another one (``scorer``), as
    TuRF, Iter and VLS are: their names in Rank (``label`` and the inner
    scorer's name), one weight per attribute from ``score_table`` (which
    returns (weights, what else the wrapper found))."""
    feature_type = Variable
    class_type = Variable
    supports_sparse_data = True
    preprocessors = []
    label = ""

    def __init__(self, scorer):
        self.scorer = scorer
        self.feature_type = getattr(scorer, "feature_type", Variable)
        self.class_type = getattr(scorer, "class_type", Variable)

    @property
    def name(self):
        """The column title in Rank, e.g. "TuRF (MultiSURF)"."""
        inner = getattr(self.scorer, "name", None) or \
            type(self.scorer).__name__
        return f"{self.label} ({inner})"

    def score_table(self, data, progress=None):
        """(weights, details) on an Orange table."""
        raise NotImplementedError

    def __call__(self, data, feature=None):
        weights = self.score_table(data)[0]
        if feature is None:
            return weights
        return float(weights[data.domain.index(data.domain[feature])])

    def score_data(self, data, feature=None):
        return self(data)[None, :] if feature is None else \
            self(data, feature)


class TuRF(Wrapper):
    """TuRF around an Orange ``scorer`` (``turf``): features removed by
    ``remove`` of the original count per round, for ``rounds`` rounds
    (1 / remove by default), ``n_keep`` at least; each feature's score is
    its last estimate."""
    label = "TuRF"

    def __init__(self, scorer, remove=0.1, rounds=None, n_keep=1):
        _schedule(10, remove, rounds, n_keep)        # check the options
        super().__init__(scorer)
        self.remove, self.rounds, self.n_keep = remove, rounds, n_keep

    def score_table(self, data, progress=None):
        """(weights, removed) of ``turf`` on an Orange table."""
        return _rounds(table_columns_scorer(self.scorer, data),
                       len(data.domain.attributes), self.remove, self.rounds,
                       self.n_keep, progress)
