"""NPDR's pieces in Python: the checked inputs, the neighbour pairs, the
covariates' differences, the per-feature regressions and the permutations
that respect the covariates (``stats.npdr`` and ``stats.npdr_permutation``
put them together; doc/statistics.md, "NPDR", says what each means).

NPDR (Le, Dawkins & McKinney, Bioinformatics 36(9), 2020; R package
``insilico/npdr``) fits, for every feature A, over the (instance, neighbour)
pairs (i, j),

    classification:  logit P(miss_ij) = b0 + b_A diff(A, I_i, I_j)
                                        + sum_C g_C diff(C, I_i, I_j)
    regression:      |y_i - y_j|      = b0 + b_A diff(A, I_i, I_j)
                                        + sum_C g_C diff(C, I_i, I_j) + e_ij

with miss_ij = 1 when the pair's classes differ and C the covariates, and
tests b_A > 0 with the one-sided p of t = b_A / se(b_A) on the residual
degrees of freedom (npdr's ``diffRegression``).  The pairs are indices into
the data; each feature's diffs are read from its column when it is fitted
(``core.npdr_pairs``), never stored for all features at once.
"""
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp
from scipy import stats as scipy_stats
from scipy.optimize import minimize

from ..core.backends import vectorised, warmup
from ..core.backends.compiled.npdr_kernels import (COMPILED, FIT_ALIASED,
                                                   FIT_DIVERGED, Pairs,
                                                   kernel_set, neighbour_pairs,
                                                   slot_share)
from ..core.options import check_options, random_generator, whole_number
from ..core.contract.neighbours import MODE_ANY
from ..core.contract.prepare import as_floats, prepare
from ..core.rules import names, rule
from ..core.backends.runtime import threads
from ..core.backends.selection import AUTOMATIC, kernels_named
from ..core.backends.vectorised import NPDR_FIRST_USE

#: Dense data up to this many values (a sparse X is densified).
DENSE_MAX_VALUES = 50_000_000
#: Columns fitted between two progress reports (at least).
COLUMN_BLOCK = 64


class Covariates(NamedTuple):
    """The covariates of the rows with a known target: ``values`` (n x c;
    nominal ones as codes), which are ``nominal``, their ``names``."""
    values: np.ndarray
    nominal: np.ndarray
    names: tuple


class Fits(NamedTuple):
    """Per feature (the caller's columns): the coefficient b_A of its diff,
    its standard error, the statistic t = b_A / se (where the logistic fit
    diverged, separation: b_A = +-inf, se NaN, and t the signed root of the
    likelihood-ratio statistic against the fit without the feature), and which
    fits could not estimate b_A (``aliased``: the feature's diffs are
    constant over the pairs or a combination of the covariates' diffs) or
    diverged (separation); ``df`` the residual degrees of freedom."""
    coefficients: np.ndarray
    standard_errors: np.ndarray
    statistics: np.ndarray
    aliased: np.ndarray
    diverged: np.ndarray
    df: float


def check_npdr_options(regression, neighbours, k_nearest, separate_hit_miss,
                       misses, variant, weight_by_distance, sigma, T, compat,
                       n_jobs):
    """A ValueError that says what to change for an option NPDR does not
    take (the Relief options checked as ``relieff`` checks them)."""
    check_options(variant, k_nearest, misses, weight_by_distance, sigma, T,
                  None, n_jobs, neighbours, regression, compat)
    if rule(neighbours).far:
        raise ValueError("NPDR regresses over near pairs; the starred rules "
                         f"also score far instances. Use neighbours="
                         f"{names(far=False)}.")
    if weight_by_distance:
        raise ValueError("NPDR counts every neighbour pair once; leave "
                         "weight_by_distance out.")
    if compat is not None:
        raise ValueError("NPDR is not part of Weka's ReliefF; use "
                         "compat=None.")
    if separate_hit_miss and regression:
        raise ValueError("A numeric target has no hits and misses; use "
                         "separate_hit_miss=False for regression.")


def dense_features(X):
    """X as a dense float array (NPDR reads feature columns; a sparse X
    is densified up to DENSE_MAX_VALUES values)."""
    if sp.issparse(X):
        if X.shape[0] * X.shape[1] > DENSE_MAX_VALUES:
            raise ValueError(f"NPDR reads dense columns; this sparse X "
                             f"would have {X.shape[0] * X.shape[1]:,} "
                             f"values. Select fewer features first.")
        X = X.toarray()
    X = as_floats(X, "X")
    if X.ndim != 2:
        raise ValueError("X must be a two-dimensional array (instances x "
                         "features).")
    return X


def check_covariates(covariates, nominal, names, y, regression):
    """The ``Covariates`` of the rows of ``y`` (all rows), or a ValueError
    that says what to change: one row per instance, no missing or infinite
    value, nominal ones as codes, no constant covariate, no covariate equal
    to the target."""
    values = as_floats(covariates, "covariates", names)
    if values.ndim == 1:
        values = values[:, None]
    if values.ndim != 2 or values.shape[0] != y.shape[0]:
        raise ValueError(f"covariates must have one row per instance "
                         f"({y.shape[0]}); got shape {values.shape}.")
    c = values.shape[1]
    nominal = np.zeros(c, bool) if nominal is None \
        else np.asarray(nominal, dtype=bool).ravel()
    if nominal.shape[0] != c:
        raise ValueError(f"covariate_nominal has {nominal.shape[0]} entries "
                         f"but there are {c} covariates; give one flag per "
                         f"covariate.")
    names = tuple(str(name) for name in names) if names is not None \
        else tuple(f"covariate {i}" for i in range(c))
    if len(names) != c:
        raise ValueError(f"covariate_names has {len(names)} names but there "
                         f"are {c} covariates.")
    known = ~np.isnan(y)
    for i, name in enumerate(names):
        column = values[known, i]
        missing = int(np.isnan(column).sum())
        if missing:
            raise ValueError(f"Covariate {name!r} is missing in {missing} "
                             f"instance(s); NPDR adjusts each pair for the "
                             f"covariates' differences, so fill them in or "
                             f"leave those instances out.")
        if np.isinf(column).any():
            raise ValueError(f"Covariate {name!r} holds +inf or -inf; "
                             f"replace them by finite numbers.")
        if nominal[i] and np.any((column < 0) | (column != np.round(column))):
            raise ValueError(f"Nominal covariate {name!r} must hold codes "
                             f"0, 1, ...; give its values as codes.")
        if column.size and column.min() == column.max():
            raise ValueError(f"Covariate {name!r} is constant: it has no "
                             f"difference to adjust for. Leave it out.")
        target = y[known]
        same = np.array_equal(column, target) if regression else \
            _same_partition(column, target)
        if same:
            raise ValueError(f"Covariate {name!r} is the target itself: "
                             f"adjusting for it leaves nothing to test. "
                             f"Leave it out of the covariates.")
    return Covariates(values, nominal, names)


def _same_partition(a, b):
    """Whether the values ``a`` and ``b`` group the rows the same way (a
    covariate that is the class under other codes)."""
    _, ia = np.unique(a, return_inverse=True)
    _, ib = np.unique(b, return_inverse=True)
    pairs = np.unique(np.column_stack([ia, ib]), axis=0)
    return pairs.shape[0] == len(np.unique(ia)) == len(np.unique(ib))


def covariate_diffs(covariates, pairs):
    """diff(C, I_i, I_j) of every covariate over the pairs (pairs x c):
    nominal, 0 or 1; numeric, |c_i - c_j| / (max - min)."""
    values = covariates.values
    out = np.empty((pairs.first.shape[0], values.shape[1]))
    for c in range(values.shape[1]):
        column = values[:, c]
        a, b = column[pairs.first], column[pairs.second]
        if covariates.nominal[c]:
            out[:, c] = a != b
        else:
            out[:, c] = np.abs(a - b) / (column.max() - column.min())
    return out


def pair_outcome(y, pairs, regression):
    """The pairs' outcome difference: 1 for a miss (different classes), 0
    for a hit; |y_i - y_j| for a numeric target."""
    a, b = y[pairs.first], y[pairs.second]
    return np.abs(a - b) if regression else (a != b).astype(float)


def choose_kernels(prep, neighbours):
    """NPDR's ``npdr_kernels.Kernels`` for ``prep``: the compiled ones when
    they are in numba's cache (``warmup``'s marker of their kernel set), or
    when the environment variable ORANGE3_RELIEF_KERNELS says "compiled";
    otherwise (a first use) the NumPy path's, which compiles nothing,
    while the background compiler (``warmup.start``) compiles them, first,
    for the later calls."""
    name = kernels_named()
    if name == "vectorised":
        return NPDR_FIRST_USE
    if name != AUTOMATIC:
        return COMPILED
    needed = kernel_set(prep, neighbours)
    if warmup.is_compiled(needed):
        return COMPILED
    warmup.start(first=needed)
    return NPDR_FIRST_USE


def weighted_pair_rows(prep, hood, group, counts, rows):
    """NPDR's pairs of visiting ``rows`` with instance weights
    (``prep.instance_weights``; ``npdr_kernels.Kernels.rows``'s
    arguments), each pair weighted as often as the table with each row
    repeated w times has it: the engine's weighted neighbours of a visit
    (``vectorised.weighted_neighbours``: a row of weight w fills w of the
    k slots, the visited row's own w - 1 copies among them, at its
    distance to itself), each pair's weight its neighbour's slots
    (``slot_share`` of the groups' weights) times the visited row's
    weight; within a radius, the two rows' weights.  The visited row's
    pairs with its own copies (diffs 0 without missing values, outcome 0)
    are pairs (r, r)."""
    weights = prep.instance_weights
    total = float(weights.sum())
    group_weights = np.bincount(group, weights=weights,
                                minlength=counts.shape[0])
    any_miss = hood.mode == MODE_ANY
    ones = np.ones(prep.n_used)
    first, second, weight = [], [], []
    for start in range(0, len(rows), vectorised.BLOCK):
        block = rows[start:start + vectorised.BLOCK]
        dist = vectorised.distances(prep, block)
        for b, r in enumerate(block):
            copies = vectorised.copies_seen(prep, r)
            if hood.uses_k:
                chosen, coef = vectorised.weighted_neighbours(
                    r, dist[b], group, hood, copies)
                slots = np.array([
                    slot_share(hood, c, group[r], group[j], group_weights,
                               any_miss, total)
                    for j, c in zip(chosen, coef)], dtype=float)
            else:
                chosen, _, _ = vectorised.weighted_radius_neighbours(
                    r, dist[b], group, hood, ones, copies)
                slots = copies[chosen]
            first.append(np.full(chosen.shape[0], r, np.int32))
            second.append(chosen.astype(np.int32))
            weight.append(weights[r] * slots)
    if not first:
        return np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0)
    return tuple(map(np.concatenate, (first, second, weight)))


class Problem:
    """One NPDR problem: the prepared features, their pairs and the
    covariates' diffs over them; ``fits(outcome)`` fits every feature.

    ``X``, ``y`` (rows with a known target only), ``nominal`` and
    ``covariates`` (``Covariates`` or None) as ``stats.npdr`` checked them.
    With class-blind neighbourhoods (a numeric target, or not
    ``separate_hit_miss``) nothing but the pairs' outcome depends on y: the
    features are prepared as for a numeric target (RELIEF-D's laws of a
    missing value are those of all instances), so a permuted target only
    changes the outcome (``permuted``).  ``instance_weights`` (> 0, one per
    row, or None) weight the pairs (``weighted_pair_rows``).
    """

    def __init__(self, X, y, nominal, covariates, *, regression, neighbours,
                 k_nearest, separate_hit_miss, misses, n_iterations,
                 random_state, n_jobs, feature_names=None, progress=None,
                 instance_weights=None):
        self.regression, self.n_jobs = regression, n_jobs
        self.blind = regression or not separate_hit_miss
        self.inputs = (X, nominal, covariates)
        self.options = dict(neighbours=neighbours, k_nearest=k_nearest,
                            separate_hit_miss=separate_hit_miss,
                            misses=misses, n_iterations=n_iterations,
                            random_state=random_state, n_jobs=n_jobs,
                            feature_names=feature_names,
                            instance_weights=instance_weights)
        with threads(n_jobs):           # (prepare's parallel passes)
            self.prep = prepare(X, y, nominal, self.blind, feature_names,
                                instance_weights=instance_weights)
        n = self.prep.group.shape[0]
        if n_iterations is None:
            self.rows = np.arange(n)
        else:
            m = whole_number(n_iterations, "n_iterations", maximum=n,
                             otherwise=f"or None for all (the data has {n} "
                                       f"instances)")
            self.rows = np.sort(random_generator(random_state)
                                .permutation(n)[:m])
        self.covariates = covariates
        self.num_t = np.ascontiguousarray(self.prep.num.T)
        self.nom_t = np.ascontiguousarray(self.prep.nom.T)
        self.tables = tuple(self.prep.kernel_tables())
        self.pairs = Pairs(np.zeros(0, np.int32), np.zeros(0, np.int32),
                           np.zeros(0))
        self.kernels = choose_kernels(self.prep, neighbours)
        if self.prep.instance_weights is not None:
            self.kernels = self.kernels._replace(rows=weighted_pair_rows)
        if self.prep.n_used:
            self.pairs = neighbour_pairs(
                self.prep, class_blind=self.blind, neighbours=neighbours,
                k_nearest=k_nearest, misses=misses, rows=self.rows,
                n_jobs=n_jobs, progress=progress, kernels=self.kernels)
            if self.pairs.first.shape[0] < 3:
                raise ValueError("NPDR needs at least three neighbour "
                                 "pairs; use more instances or a larger "
                                 "k_nearest.")
        # the covariates' diffs, covariate by covariate (c x pairs)
        self.Zt = np.zeros((0, self.pairs.first.shape[0])) \
            if covariates is None else np.ascontiguousarray(
                covariate_diffs(covariates, self.pairs).T)

    def permuted(self, y):
        """The problem of the permuted target ``y``: this one when the
        neighbourhoods are class-blind (only the outcome changes), else
        one with its own hit and miss neighbourhoods."""
        if self.blind:
            return self
        X, nominal, covariates = self.inputs
        return Problem(X, y, nominal, covariates, regression=self.regression,
                       **self.options)

    @property
    def n_features(self):
        return self.prep.n_features

    def df(self):
        """The residual degrees of freedom: the pairs (their weights' sum)
        less the coefficients (NaN without pairs: no feature varies)."""
        if not self.pairs.first.shape[0]:
            return float("nan")
        return float(self.pairs.weight.sum()) - 2 - self.Zt.shape[0]

    def null_fit(self, outcome):
        """(coefficients, log-likelihood) of the logistic fit without a
        feature (intercept and covariates), the start of every feature's
        Newton steps; a ValueError when there is nothing to fit."""
        w = self.pairs.weight
        share = float(np.dot(w, outcome) / w.sum())
        if not 0 < share < 1:
            kind = "a hit" if share == 0 else "a miss"
            raise ValueError(f"Every neighbour pair is {kind}, so there is "
                             f"nothing to regress; use a larger k_nearest "
                             f"or a radius rule.")
        start = np.zeros(2 + self.Zt.shape[0])
        start[0] = np.log(share / (1 - share))
        beta = np.empty_like(start)
        zeros = np.zeros(outcome.shape[0])
        status, _, _ = self.kernels.fit(zeros, False, self.Zt, outcome, w,
                                        start, True, beta)
        if status != 0:
            raise ValueError("The covariates' differences predict every "
                             "pair's hit or miss exactly (or are collinear); "
                             "adjusting for them leaves nothing to test. "
                             "Leave such covariates out.")
        return beta, self.kernels.log_likelihood(zeros, self.Zt, outcome, w,
                                                 beta)

    def fits(self, outcome, progress=None):
        """``Fits`` of every feature for the pairs' ``outcome``."""
        prep, pairs = self.prep, self.pairs
        logistic = not self.regression
        start, null_loglik = self.null_fit(outcome) \
            if logistic and prep.n_used else (np.zeros(2 + self.Zt.shape[0]),
                                              0.0)
        columns = np.arange(prep.n_used)
        out = np.zeros((columns.shape[0], 4))
        with threads(self.n_jobs) as n_threads:
            step = max(COLUMN_BLOCK, 4 * n_threads)
            for begin in range(0, columns.shape[0], step):
                block = columns[begin:begin + step]
                self.kernels.fit_columns(
                    block, pairs.first, pairs.second, pairs.weight, outcome,
                    self.Zt, start, logistic, self.num_t, self.nom_t,
                    prep.group, prep.has_missing, self.tables,
                    out[begin:begin + step], min(n_threads, block.shape[0]))
                if progress is not None:
                    progress(min(begin + step, columns.shape[0])
                             / max(columns.shape[0], 1))
        return self._fits(out, null_loglik)

    def _fits(self, out, null_loglik):
        """Kernel columns' results as ``Fits`` of the caller's features."""
        df = self.df()
        beta, info, value, status = out.T
        aliased = status == FIT_ALIASED
        diverged = status == FIT_DIVERGED
        with np.errstate(divide="ignore", invalid="ignore"):
            if self.regression:
                se = np.sqrt(value / df / info)
            else:
                se = 1.0 / np.sqrt(info)
            statistic = np.where(se > 0, beta / se,
                                 np.sign(beta) * np.inf)
        if diverged.any():      # the signed root of the likelihood ratio
            sign = np.sign(beta[diverged])
            statistic[diverged] = sign * np.sqrt(
                np.maximum(0.0, 2 * (value[diverged] - null_loglik)))
            beta[diverged] = sign * np.inf
            se[diverged] = np.nan
        a = self.prep.n_features
        used = self.prep.used
        full = {}
        for name, values, fill in (("coefficients", beta, np.nan),
                                   ("standard_errors", se, np.nan),
                                   ("statistics", statistic, np.nan)):
            column = np.full(a, fill)
            column[used] = np.where(aliased, np.nan, values)
            full[name] = column
        flags = {}
        for name, values in (("aliased", aliased), ("diverged", diverged)):
            column = np.zeros(a, bool)
            column[used] = values
            flags[name] = column
        flags["aliased"][self.prep.constant] = True
        return Fits(df=df, **full, **flags)


def one_sided_p(statistics, df):
    """P(T_df >= t), npdr's one-sided p of the coefficient (Student's t on
    the residual degrees of freedom, for the logistic fits too)."""
    return scipy_stats.t.sf(statistics, df)


# -- permutations that respect the covariates --------------------------------

def strata(covariates, n_bins, weights=None):
    """Each row's stratum: the combination of its nominal covariates'
    values and of its numeric covariates' quantile bins (``n_bins`` bins
    of about equal counts; with instance ``weights``, of equal weight:
    ``weighted_quantiles``)."""
    values = covariates.values
    keys = np.zeros((values.shape[0], values.shape[1]), np.int64)
    levels = np.linspace(0, 1, n_bins + 1)[1:-1]
    for c in range(values.shape[1]):
        column = values[:, c]
        if covariates.nominal[c]:
            keys[:, c] = np.unique(column, return_inverse=True)[1]
        else:
            edges = np.quantile(column, levels) if weights is None \
                else weighted_quantiles(column, weights, levels)
            keys[:, c] = np.searchsorted(edges, column, side="right")
    return np.unique(keys, axis=0, return_inverse=True)[1].ravel()


def weighted_quantiles(column, weights, levels):
    """``np.quantile(column, levels)`` (its default, linear interpolation)
    of rows that count as ``weights`` copies each: the sorted copies take
    the positions 0 .. sum w - 1, a row of weight w the next w of them (a
    fraction of one where w is), and a level q falls at q (sum w - 1), so
    integer weights give the quantiles of the repeated rows."""
    order = np.argsort(column, kind="stable")
    values, covered = column[order], np.cumsum(weights[order])
    at = np.asarray(levels, dtype=float) * max(covered[-1] - 1.0, 0.0)
    below = np.floor(at)
    last = values.shape[0] - 1
    low = values[np.minimum(np.searchsorted(covered, below, "right"), last)]
    high = values[np.minimum(np.searchsorted(covered, below + 1, "right"),
                             last)]
    t = at - below
    step = high - low
    return np.where(t >= 0.5, high - step * (1 - t), low + step * t)


def design(covariates):
    """The instance-level design [1, covariates] of Freedman and Lane's
    reduced model (nominal covariates as indicator columns, the first
    value left out)."""
    values = covariates.values
    columns = [np.ones(values.shape[0])]
    for c in range(values.shape[1]):
        column = values[:, c]
        if covariates.nominal[c]:
            levels = np.unique(column)
            columns += [(column == level).astype(float)
                        for level in levels[1:]]
        else:
            columns.append(column)
    return np.column_stack(columns)


#: How ``npdr_permutation`` draws a class under the null when there are
#: covariates (a numeric target: always Freedman and Lane's).
CLASS_DRAWS = ("model", "strata")


def class_probabilities(D, codes, n_classes, weights=None):
    """P(class | covariates) of each instance (n x classes) from the
    multinomial logistic regression of the class codes 0..n_classes-1 on
    the design ``D`` (its first column the intercept), by maximum
    likelihood (the first class is the reference), each instance's term
    counted ``weights`` times (instance weights; None: once)."""
    n, p = D.shape
    onehot = np.zeros((n, n_classes))
    onehot[np.arange(n), codes] = 1.0 if weights is None else weights

    def probabilities(flat):
        eta = np.zeros((n, n_classes))
        eta[:, 1:] = D @ flat.reshape(p, n_classes - 1)
        eta -= eta.max(axis=1, keepdims=True)
        e = np.exp(eta)
        return e / e.sum(axis=1, keepdims=True)

    counts = onehot.sum(axis=1, keepdims=True)    # (the weights, or 1)

    def loss(flat):
        P = probabilities(flat)
        logs = np.log(np.maximum(P[onehot > 0], 1e-300))
        value = -np.sum(logs if weights is None
                        else onehot[onehot > 0] * logs)
        return value, (D.T @ (counts * P - onehot)[:, 1:]).ravel()

    start = np.zeros(p * (n_classes - 1))
    best = minimize(loss, start, jac=True, method="L-BFGS-B",
                    options=dict(maxiter=1000, ftol=1e-14, gtol=1e-10)).x
    return probabilities(best)


class Permuter:
    """Draws of the target under the null that no feature adds to the
    covariates.  Without covariates: y permuted.  A numeric target:
    Freedman and Lane's y* = fitted + permuted residuals of the least-
    squares fit of y on the covariates (on the instances).  A class,
    ``draws="model"``: each instance's class drawn from P(class |
    covariates) of the multinomial logistic regression of the class on the
    covariates (the parametric counterpart of Freedman and Lane's for a
    class); ``draws="strata"``: y permuted within the covariates' strata
    (``strata``, ``n_bins`` quantile bins of a numeric covariate).

    With instance ``weights`` (> 0, one per instance, or None) the null
    model is fitted as on the table with each row repeated w times
    (weighted least squares, the weighted likelihood, quantiles of the
    copies), and each draw keeps every weight with its row: the rows'
    targets, residuals or classes move, the weights stay."""

    def __init__(self, y, covariates, regression, n_bins, seed,
                 draws="model", weights=None):
        self.y, self.rng = y, random_generator(seed, "permutation_seed")
        self.groups = self.fitted = self.residuals = None
        self.cumulative = None
        if covariates is None:
            return
        if regression:
            D = design(covariates)
            root = np.ones(y.shape[0]) if weights is None \
                else np.sqrt(weights)
            coef = np.linalg.lstsq(D * root[:, None], y * root,
                                   rcond=None)[0]
            self.fitted = D @ coef
            self.residuals = y - self.fitted
        elif draws == "model":
            self.classes, codes = np.unique(y, return_inverse=True)
            P = class_probabilities(design(covariates), codes.ravel(),
                                    self.classes.shape[0], weights)
            self.cumulative = np.cumsum(P, axis=1)
        else:
            stratum = strata(covariates, n_bins, weights)
            self.groups = [np.flatnonzero(stratum == s)
                           for s in np.unique(stratum)]

    def draw(self):
        if self.residuals is not None:
            return self.fitted + self.rng.permutation(self.residuals)
        if self.cumulative is not None:
            u = self.rng.random(self.y.shape[0])[:, None]
            picked = np.minimum((u >= self.cumulative).sum(axis=1),
                                self.classes.shape[0] - 1)
            return self.classes[picked]
        if self.groups is None:
            return self.rng.permutation(self.y)
        out = self.y.copy()
        for rows in self.groups:
            out[rows] = self.y[self.rng.permutation(rows)]
        return out
