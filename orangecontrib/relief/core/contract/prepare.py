"""Turn raw arrays into what the Relief kernels need (numpy, and two numba
passes over dense data).

Everything here follows ``doc/semantics.md``:

* rows with a missing class are dropped first;
* numeric features are range-normalised, ``(x - min) / (max - min)``, so that
  ``diff = |v1 - v2|`` in the kernels (seed eq. euclidean); a range beyond the
  largest double is halved first (``range_scale``), and infinite values are an
  error (``check_finite``);
* nominal features become integer codes with ``-1`` for missing (eq. overlap);
* constant features (one known value) always have diff 0, so they get weight 0
  and are left out of the distance; all-missing features get weight NaN;
* missing values follow RELIEF-D (seed eq. relief_d): the tables below hold the
  class-conditional laws ``P(v | c)`` and the expected differences
  ``E|X - v|`` and ``E|X1 - X2|`` the kernels look up.
"""
from dataclasses import dataclass, replace
from typing import NamedTuple, Optional

import numpy as np
import scipy.sparse as sp
from numba import njit, prange

from ..messages import warn
from .diffs import Targets, mean_abs_to

_JIT = dict(cache=True, nogil=True)
# the one-pass kernels over large dense data run on numba's threads (as
# many as the run's n_jobs: ``backends.base.start``)
_PARALLEL_JIT = dict(_JIT, parallel=True)


class MissingTables(NamedTuple):
    """RELIEF-D lookup tables; ``c`` indexes classes (a single one in regression).

    Numeric feature ``f``, class ``c``: the known normalised values of ``f`` in
    ``c`` are ``num_sorted[num_start[f, c]: num_start[f, c] + num_count[f, c]]``
    (sorted), with prefix sums at ``num_prefix[num_pstart[f, c]:]``; a class with
    no known value points at the overall law.  ``num_both[f, c1, c2]`` is
    ``E|X1 - X2|``, ``nom_prob[g, c, v]`` is ``P(v | c)`` and ``nom_both[g, c1,
    c2]`` is ``1 - sum_u P(u | c1) P(u | c2)``.
    """
    num_sorted: np.ndarray
    num_prefix: np.ndarray
    num_start: np.ndarray
    num_pstart: np.ndarray
    num_count: np.ndarray
    num_both: np.ndarray
    nom_prob: np.ndarray
    nom_both: np.ndarray


class Expectations(NamedTuple):
    """RELIEF-D's E|X - v| for one value missing, looked up: for each
    instance i, numeric kernel column f with a missing value and class c,
    ``values[i, column[f], c]`` = E_c|X_f - x_if| (X over c's law of f in
    ``MissingTables``; unset where x_if is missing), the number
    ``diffs.expected_abs`` finds by a search in the law.  ``column[f]`` is
    -1 for a column without missing values.  A speed mechanism of the
    CPU's distance rows, updates and STIR sums (``Speedups.expectations``;
    built by ``looked_up``); empty (``NO_EXPECTATIONS``) elsewhere."""
    values: np.ndarray        # n x (columns with a missing value) x C
    column: np.ndarray        # (a_num,) int64


NO_EXPECTATIONS = Expectations(np.zeros((0, 0, 0)), np.zeros(0, np.int64))


class SparseRows(NamedTuple):
    """Sparse data in kernel form (zeros are values): the CSR rows of the used
    columns (numeric values divided by their range, nominal codes as they
    are; column indices sorted within a row) and the CSC columns of the same
    matrix.  Indices are uint32: less to read in the column walks, and numba
    skips the wrap-around of negative indices."""
    indptr: np.ndarray        # (n + 1,) int64
    indices: np.ndarray       # column of each stored entry, uint32
    values: np.ndarray        # float64
    nominal: np.ndarray       # (a,) bool: which columns are nominal
    col_ptr: np.ndarray       # (a + 1,) int64
    col_rows: np.ndarray      # row of each stored entry of the columns, uint32
    col_values: np.ndarray    # float64


class Data(NamedTuple):
    """Everything the kernels read about the instances; kernel columns hold
    the numeric features first, then the nominal ones."""
    num: np.ndarray           # n x a_num float64, normalised; NaN = missing
    nom: np.ndarray           # n x a_nom int8/int32 codes; -1 = missing
    group: np.ndarray         # n int64: class index (classification) or 0
    target: np.ndarray        # n: normalised target (regression) or zeros;
    #                           several targets: ``diffs.Targets``
    has_missing: bool
    sparse: bool              # True: the values are in ``rows``, not num/nom
    rows: SparseRows
    missing: MissingTables
    expected: Expectations    # RELIEF-D's values looked up, or empty


@dataclass
class Prepared:
    """Data in kernel form; ``used`` maps kernel columns (numeric first, then
    nominal) back to the caller's feature indices.

    Dense data fill ``num`` and ``nom``.  Sparse data (``sparse=True``) fill
    ``sp`` instead (``SparseRows``).
    """
    num: np.ndarray            # n x a_num float64, normalised; NaN = missing
    nom: np.ndarray            # n x a_nom int8/int32 codes; -1 = missing
    sparse: bool
    sp: SparseRows
    used: np.ndarray           # (a_num + a_nom,) original feature index
    constant: np.ndarray       # original indices of constant features (weight 0)
    all_missing: np.ndarray    # original indices of all-missing features (NaN)
    n_features: int
    group: np.ndarray          # n int64: class index (classification) or 0
    n_classes: int             # number of classes present (1 for regression)
    class_counts: np.ndarray   # (n_classes,) int64
    target: Optional[np.ndarray]   # regression: normalised target, else None
    #                                (several targets: ``diffs.Targets``)
    has_missing: bool
    missing: MissingTables
    n_dropped: int
    # the caller's class code of each class index (``_classes``)
    class_codes: np.ndarray
    # each instance's weight (> 0; the rows of weight 0 are dropped), or
    # None: every instance counts once (``check_instance_weights``)
    instance_weights: Optional[np.ndarray] = None
    # with instance weights and missing values: the cumulative weights of
    # RELIEF-D's numeric laws, laid out as ``missing.num_prefix`` (whose
    # prefix sums are then weighted: ``expected_abs_to``); else None
    law_weights: Optional[np.ndarray] = None
    # the rows of a known target left out for their instance weight 0
    n_weightless: int = 0

    @property
    def n_used(self):
        """The number of kernel columns (features that take part)."""
        return self.used.shape[0]

    def data(self, regression, expected=NO_EXPECTATIONS):
        """The kernels' view of the instances (``Data``), with RELIEF-D's
        ``expected`` values looked up (``looked_up``) or not."""
        target = self.target if regression else np.zeros(self.group.shape[0])
        return Data(self.num, self.nom, self.group, target, self.has_missing,
                    self.sparse, self.sp, self.kernel_tables(), expected)

    def kernel_tables(self):
        """RELIEF-D's tables as the kernels read them: ``missing``, whose
        ``num_prefix`` with instance weights and missing values is 2-D,
        the prefix sums of w x beside the cumulative weights
        (``law_weights``), so ``diffs.expected_abs`` takes the weighted
        law (a type of its own: unweighted runs compile as before)."""
        if self.law_weights is None:
            return self.missing
        return self.missing._replace(num_prefix=np.column_stack(
            (self.missing.num_prefix, self.law_weights)))


def as_floats(values, what, names=None):
    """``values`` as a float array (no copy when it is one); text, or a
    complex number with an imaginary part (``real_part``), raises a
    ValueError that says what to give instead of numpy's "could not convert
    string to float" or its silent cut to the real part."""
    if np.iscomplexobj(values):
        values = real_part(np.asarray(values), what, names)
    try:
        return np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(
            f"{what} must hold numbers (NaN for a missing value), not text: "
            "give nominal values and class labels as codes 0, 1, ... (e.g. "
            "numpy.unique(labels, return_inverse=True)[1]), or use "
            "orangecontrib.relief.sklearn.ReliefFSelector, which encodes "
            "them.") from None


def real_part(values, what, names=None, columns=None):
    """The real part of complex ``values`` (a column's ``columns``: of
    sparse data's stored values) where no imaginary part is set; else a
    ValueError naming the first column (feature) or entry that has one:
    Relief measures real differences, and which real number stands for a
    complex one (its real part, its modulus) is the user's choice."""
    imaginary = np.flatnonzero(values.imag.ravel() != 0)
    if not len(imaginary):
        return values.real
    first = imaginary[0]
    if columns is not None:
        where = describe_feature(columns[first], names)
    elif values.ndim == 2:
        where = describe_feature(first % values.shape[1], names) \
            + f", row {first // values.shape[1]}"
    else:
        where = f"entry {first}"
    raise ValueError(
        f"{what} holds complex numbers ({where}: "
        f"{complex(values.ravel()[first])}); Relief takes real numbers. Give "
        "the real part, the modulus (abs) or both as separate columns.")


def describe_feature(f, names=None):
    """How an error message names feature ``f``."""
    if names is not None and f < len(names):
        return f"feature {names[f]!r} (column {f})"
    return f"feature {f}"


def check_finite(lo, hi, names=None, numeric=None):
    """A ValueError naming the first (``numeric``) feature whose known
    values include +inf or -inf (``lo``, ``hi``: the columns' min and max):
    its range, the unit of a numeric diff, would be infinite and every other
    diff 0."""
    infinite = np.isinf(lo) | np.isinf(hi)
    if numeric is not None:
        infinite &= numeric
    bad = np.flatnonzero(infinite)
    if len(bad):
        f = bad[0]
        which = " and ".join(v for v, on in (("-inf", np.isinf(lo[f])),
                                            ("+inf", np.isinf(hi[f]))) if on)
        more = f" (as do {len(bad) - 1} other features)" if len(bad) > 1 \
            else ""
        raise ValueError(
            f"The values of {describe_feature(f, names)} include "
            f"{which}{more}. Relief measures numeric differences in units "
            "of a feature's range, which would be infinite; replace "
            "infinite values by NaN (missing) or by finite numbers.")


def range_scale(lo, hi):
    """(pre, shift, span) such that (x * pre - shift) / span is
    (x - lo) / (hi - lo): pre = 1 where hi - lo is a finite double (the same
    numbers), and 0.5 where it overflows (finite values such as +-1.5e308):
    halving is exact, so those columns are normalised as the data halved
    would be, instead of all becoming 0."""
    lo, hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
    with np.errstate(over="ignore"):    # (an overflow is such a column)
        span = hi - lo
    wide = np.isinf(span) & np.isfinite(lo) & np.isfinite(hi)
    pre = np.where(wide, 0.5, 1.0)
    return pre, lo * pre, np.where(wide, hi * 0.5 - lo * 0.5, span)


def several_targets(y, nominal_targets=None):
    """Whether ``y`` holds several targets (multi-target Relief): a 2-D y of
    more than one column, or of one column described by
    ``nominal_targets``."""
    return np.ndim(y) == 2 and (np.shape(y)[1] > 1
                                or nominal_targets is not None)


def checked_inputs(X, y, nominal, names=None, multi=False):
    """X as floats (sparse data as it is), y as floats and the nominal mask
    (every feature numeric by default), with the checks every preparation
    shares (``names``: the features', for messages; ``multi``: y holds
    several targets, one column each)."""
    if sp.issparse(X) and np.iscomplexobj(X.data):
        X = sp.csr_matrix(X)
        X.data = real_part(X.data, "X", names, columns=X.indices)
    if not sp.issparse(X):
        X = as_floats(X, "X", names)        # no copy: X is only read
        if X.ndim != 2:
            raise ValueError("X must be a two-dimensional array (instances x "
                             "features).")
    n_features = X.shape[1]
    if nominal is None:
        nominal = np.zeros(n_features, dtype=bool)
    nominal = np.asarray(nominal, dtype=bool).ravel()
    if nominal.shape[0] != n_features:
        raise ValueError(f"nominal has {nominal.shape[0]} entries but X has "
                         f"{n_features} features; give one flag per feature.")
    y = as_floats(y, "y (the class)")
    y = y if multi else y.ravel()
    if y.shape[0] != X.shape[0]:
        raise ValueError(f"X has {X.shape[0]} rows but y has {y.shape[0]} "
                         "values; give one class value per row.")
    if np.isinf(y).any():
        raise ValueError("The target y holds +inf or -inf; replace infinite "
                         "values by NaN (a missing target) or by finite "
                         "numbers.")
    return X, y, nominal


def check_class_codes(codes):
    """A ValueError unless the known class values are codes 0, 1, ... below
    2^31, as for nominal features: the engine keeps one count per code up to
    the largest, so a value such as 1e300 is not a class code (cast to an
    integer it would overflow)."""
    if len(codes) and np.any((codes < 0) | (codes != np.round(codes))
                             | (codes > 2 ** 31 - 1)):
        raise ValueError("A discrete class must be given as integer codes "
                         "(0, 1, ..., below 2^31); for a numeric class use "
                         "the regression form (regression=True).")


def _clean_class(X, y, regression, weights=None):
    """X, y (and the instance weights) without the rows of a missing class
    (several targets: of no known target; counted, with a warning) and the
    rows of weight 0 (an instance of weight 0 is not in the data); the
    third value counts both kinds of rows left out."""
    known = ~np.isnan(y) if y.ndim == 1 else ~np.isnan(y).all(axis=1)
    n_dropped = int((~known).sum())
    if n_dropped:
        what = "a missing class value" if y.ndim == 1 \
            else "no known target value"
        warn(f"{n_dropped} instance(s) with {what} were left out.",
             stacklevel=3)
    n_weightless = 0
    if weights is not None:
        n_weightless = int((known & ~(weights > 0)).sum())
        known &= weights > 0
    if not known.all():
        X = X[known]
        y = y[known]
        weights = None if weights is None else weights[known]
    if weights is not None and np.all(weights == 1.0):
        weights = None          # (rows of weight 0 left out, the rest 1)
    if not regression:
        check_class_codes(y)
    return X, y, (n_dropped, n_weightless), weights


def check_instance_weights(weights, n):
    """The instance weights as floats, one per row of X (``n``), or None
    where there are none or all are 1 (the unweighted run, exactly); a
    ValueError that says what is wrong with weights that are not one
    finite number >= 0 per row, or all 0.  An instance of weight w counts
    as w copies of itself (``doc/semantics.md``, "Instance weights")."""
    if weights is None:
        return None
    if sp.issparse(weights):
        weights = weights.toarray()
    if np.iscomplexobj(weights) or isinstance(weights, (str, bytes)):
        raise ValueError("instance_weights must be real numbers, one per "
                         "row of X.")
    try:
        weights = np.asarray(weights, dtype=float)
    except (TypeError, ValueError):
        raise ValueError("instance_weights must be numbers, one per row of "
                         "X (a 1-D array of n floats >= 0).") from None
    if weights.ndim != 1:
        if weights.ndim == 2 and 1 in weights.shape:
            weights = weights.ravel()
        else:
            raise ValueError(f"instance_weights must be one-dimensional (one "
                             f"weight per row of X); got an array of shape "
                             f"{weights.shape}.")
    if weights.shape[0] != n:
        raise ValueError(f"instance_weights has {weights.shape[0]} entries "
                         f"but X has {n} rows; give one weight per row.")
    bad = np.flatnonzero(~np.isfinite(weights))
    if len(bad):
        raise ValueError(f"instance_weights must be finite; the weight of "
                         f"row {bad[0]} is {weights[bad[0]]} (a row to leave "
                         "out gets weight 0).")
    bad = np.flatnonzero(weights < 0)
    if len(bad):
        raise ValueError(f"instance_weights must be >= 0; the weight of row "
                         f"{bad[0]} is {weights[bad[0]]}.")
    if n and not np.any(weights > 0):
        raise ValueError("instance_weights are 0 for every row: no instance "
                         "is left to score; give at least two rows a "
                         "positive weight.")
    if np.all(weights == 1.0):
        return None
    return weights


def prepare(X, y, nominal=None, regression=False, names=None, *,
            nominal_targets=None, instance_weights=None):
    """Check and convert ``X`` (n x a, NaN = missing) and ``y`` for the kernels.

    ``nominal`` is a boolean mask of the nominal features (integer codes);
    by default every feature is numeric.  ``names`` (optional) name the
    features in error messages.  A 2-D ``y`` of several columns holds
    several targets (``several_targets``; the regression form), of which
    ``nominal_targets`` (a flag per column; none by default) are nominal.
    ``instance_weights`` (optional, one per row,
    ``check_instance_weights``): the rows of weight 0 are left out, and
    the others' weights kept on the result (``Prepared``).
    """
    multi = several_targets(y, nominal_targets)
    X, y, nominal = checked_inputs(X, y, nominal, names, multi)
    weights = check_instance_weights(instance_weights, X.shape[0])
    if multi:
        y = _target_columns(y, nominal_targets)
    n_features = X.shape[1]
    if sp.issparse(X):
        X = sp.csr_matrix(X, dtype=float)
        if np.isnan(X.data).any():
            # RELIEF-D needs class laws of every feature: go dense
            warn("Sparse data with missing values are scored as "
                          "dense data.", stacklevel=2)
            X = X.toarray()
        else:
            return _prepare_sparse(X, y, nominal, regression, names,
                                   nominal_targets, weights)
    X, y, (n_dropped, n_weightless), weights = _clean_class(
        X, y, regression, weights)
    n = X.shape[0]
    check_size(n)

    n_known, lo, hi = column_stats(X) if X.size > SMALL_VALUES \
        else _column_stats_numpy(X)
    check_finite(lo, hi, names, ~nominal)
    all_missing = np.flatnonzero(n_known == 0)
    constant = np.flatnonzero((n_known > 0) & (lo == hi))
    if len(all_missing):
        warn(f"{len(all_missing)} feature(s) have no known value; "
                      "their weight is NaN.", stacklevel=2)
    usable = (n_known > 0) & (lo < hi)
    num_cols = np.flatnonzero(usable & ~nominal)
    nom_cols = np.flatnonzero(usable & nominal)

    pre, shift, span = range_scale(lo[num_cols], hi[num_cols])
    num, num_missing = scaled_numeric(X, num_cols, pre, shift, span)
    # int8 codes when they fit: the kernels compare 32 of them at a time
    nom = np.empty((n, len(nom_cols)), np.int8)
    codes = _nominal_codes if X.size > SMALL_VALUES else _nominal_codes_numpy
    valid, top = codes(X, nom_cols, nom)
    if valid and top > 127:
        nom = np.empty((n, len(nom_cols)), np.int32)
        valid, top = codes(X, nom_cols, nom)
    if not valid:
        _bad_codes(X, nom_cols, names)
    if top >= max(n, SPARSE_CODES):
        nom = codes_present(nom)

    group, n_classes, class_counts, target, class_codes = _classes(
        y, regression, nominal_targets)
    has_missing = bool(num_missing or (nom < 0).any())
    missing, law_weights = _missing_tables(num, nom, group, n_classes,
                                           has_missing, weights)
    return Prepared(num=num, nom=nom, sparse=False, sp=NO_SPARSE,
                    used=np.concatenate([num_cols, nom_cols]).astype(np.int64),
                    constant=constant, all_missing=all_missing,
                    n_features=n_features, group=group, n_classes=n_classes,
                    class_counts=class_counts, target=target,
                    has_missing=has_missing, missing=missing,
                    n_dropped=n_dropped, n_weightless=n_weightless,
                    class_codes=class_codes,
                    instance_weights=weights, law_weights=law_weights)


def with_target(prep, y, regression=False):
    """``prep`` (dense) with another target ``y`` for its instances (their
    values in its row order: the rows whose target ``prepare`` kept): the
    classes or normalised target and RELIEF-D's class laws as ``prepare``
    computes them, the values themselves shared (a permutation test's refits
    prepare X once)."""
    y = np.asarray(y, dtype=float)
    several = isinstance(prep.target, Targets)
    unknown = np.isnan(y).all(axis=1) if several and y.ndim == 2 \
        else np.isnan(y)
    if y.shape[0] != prep.group.shape[0] or y.ndim != 1 + several \
            or unknown.any():
        raise ValueError("with_target needs one known target value per "
                         "prepared instance (of several targets: a row "
                         "per instance with a value known).")
    if not regression:
        check_class_codes(y)
    group, n_classes, class_counts, target, class_codes = _classes(
        y, regression, prep.target.nominal if several else None)
    missing, law_weights = _missing_tables(prep.num, prep.nom, group,
                                           n_classes, prep.has_missing,
                                           prep.instance_weights)
    return replace(prep, group=group, n_classes=n_classes,
                   class_counts=class_counts, target=target, missing=missing,
                   class_codes=class_codes, law_weights=law_weights)


# Small data is prepared with NumPy: the one-pass parallel numba kernels
# below (``column_stats``, ``_scale_rows``) are faster on large data, but
# compiling them takes a second or two on first use.  ``prepare`` on a
# 2-core machine: 20,000 x 500 in 10 ms (2 threads; 18 ms on one) against
# 28 ms with NumPy's scaling passes and a serial ``column_stats``; 20,000 x
# 5,000 in 0.13 against 0.36 s.
SMALL_VALUES = 1_000_000


def scaled_numeric(X, cols, pre, shift, span):
    """The numeric block of the kernels, ``(X[:, cols] * pre - shift) /
    span`` (``range_scale``'s factors, a C-contiguous copy), and whether it
    holds a NaN (a missing value: the factors are finite and span > 0).
    Large data: one parallel pass (``_scale_rows``); small data: NumPy's
    passes, which need no compiling; the same bits (x * 1.0 is exact, and
    both multiply, subtract and divide in that order)."""
    n = X.shape[0]
    if X.size > SMALL_VALUES:
        num = np.empty((n, len(cols)))
        missing = _scale_rows(X, np.ascontiguousarray(cols, np.int64),
                              pre, shift, span, num)
        return num, bool(missing)
    # the one copy of the numeric data (a run of columns as a slice: a
    # plain copy, 5x faster than gathering them)
    whole = len(cols) and cols[-1] - cols[0] == len(cols) - 1
    num = X[:, cols[0]:cols[-1] + 1].copy() if whole else X[:, cols]
    if np.any(pre != 1.0):
        num *= pre
    num -= shift
    num /= span
    num = np.ascontiguousarray(num)
    return num, bool(np.isnan(num).any())


# rows per block of the parallel passes (``row_blocks``)
BLOCK_ROWS = 512


@njit(**_JIT)
def row_blocks(n):
    """The number of blocks of BLOCK_ROWS rows (at least one) that the
    parallel passes split n rows into: block b is rows b * BLOCK_ROWS up
    to min(n, (b + 1) * BLOCK_ROWS)."""
    return max(1, (n + BLOCK_ROWS - 1) // BLOCK_ROWS)


@njit(**_PARALLEL_JIT)
def _scale_rows(X, cols, pre, shift, span, out):
    """out[i, q] = (X[i, cols[q]] * pre[q] - shift[q]) / span[q] in one
    parallel pass over blocks of rows; returns whether a value is NaN.  A
    run of columns is read as a slice of each row: that loop vectorises
    (20,000 x 500 on one thread: 18 against 26 ms gathered)."""
    n, m = X.shape[0], cols.shape[0]
    blocks = row_blocks(n)
    missing = np.zeros(blocks, np.bool_)
    first = cols[0] if m and cols[m - 1] - cols[0] == m - 1 else -1
    for b in prange(blocks):
        found = False
        for i in range(b * BLOCK_ROWS, min(n, (b + 1) * BLOCK_ROWS)):
            dst = out[i]
            if first >= 0:
                row = X[i, first:first + m]
                for q in range(m):
                    v = (row[q] * pre[q] - shift[q]) / span[q]
                    dst[q] = v
                    found |= v != v
            else:
                row = X[i]
                for q in range(m):
                    v = (row[cols[q]] * pre[q] - shift[q]) / span[q]
                    dst[q] = v
                    found |= v != v
        missing[b] = found
    return missing.any()


def _column_stats_numpy(X):
    """``column_stats`` in NumPy (the same numbers)."""
    known = ~np.isnan(X)
    n_known = known.sum(axis=0).astype(np.int64)
    lo = np.where(known, X, np.inf).min(axis=0, initial=np.inf)
    hi = np.where(known, X, -np.inf).max(axis=0, initial=-np.inf)
    lo[n_known == 0] = hi[n_known == 0] = np.nan
    return n_known, lo, hi


def _nominal_codes_numpy(X, cols, out):
    """``_nominal_codes`` in NumPy (the same codes and answers)."""
    values = X[:, cols]
    missing = np.isnan(values)
    with np.errstate(invalid="ignore"):
        ok = ~missing & (values >= 0) & (values == np.floor(values)) \
            & (values <= 2 ** 31 - 1)
    limit = min(np.iinfo(out.dtype).max, 2 ** 31 - 1)
    top = int(values[ok].max()) if ok.any() else -1
    fits = ok & (values <= limit)
    out[:] = np.where(missing, -1, np.where(fits, values, 0))
    return bool(np.all(ok | missing)), top


@njit(**_PARALLEL_JIT)
def column_stats(X):
    """Per column: the number of known values, and their min and max (NaN
    when none is known).  One parallel pass over blocks of rows, without
    branches (it vectorises; numpy took a pass for each and 3x longer),
    each block's counts, min and max then combined in block order: the
    same numbers as one serial pass (NaN compares false; of equal values,
    such as 0.0 and -0.0, the first is kept)."""
    n, a = X.shape
    blocks = row_blocks(n)
    counts = np.zeros((blocks, a), np.int64)
    lows = np.full((blocks, a), np.inf)
    highs = np.full((blocks, a), -np.inf)
    for b in prange(blocks):
        count, lo, hi = counts[b], lows[b], highs[b]
        for i in range(b * BLOCK_ROWS, min(n, (b + 1) * BLOCK_ROWS)):
            row = X[i]
            for f in range(a):
                v = row[f]
                count[f] += v == v
                lo[f] = v if v < lo[f] else lo[f]   # (NaN compares false)
                hi[f] = v if v > hi[f] else hi[f]
    n_known = np.zeros(a, np.int64)
    lo = np.full(a, np.inf)
    hi = np.full(a, -np.inf)
    for b in range(blocks):
        for f in range(a):
            n_known[f] += counts[b, f]
            lo[f] = lows[b, f] if lows[b, f] < lo[f] else lo[f]
            hi[f] = highs[b, f] if highs[b, f] > hi[f] else hi[f]
    for f in range(a):
        if n_known[f] == 0:
            lo[f] = hi[f] = np.nan
    return n_known, lo, hi


@njit(**_JIT)
def _nominal_codes(X, cols, out):
    """out[:, g] = the codes in column cols[g] of X, -1 for NaN.  Returns
    (valid, top): whether every known value is a non-negative integer code
    that fits ``out`` (2^31 - 1 at most), and the largest code seen."""
    limit = min(np.iinfo(out.dtype).max, 2 ** 31 - 1)
    top = -1
    valid = True
    for i in range(X.shape[0]):
        row, codes = X[i], out[i]
        for g in range(cols.shape[0]):
            v = row[cols[g]]
            if v != v:
                codes[g] = -1
            elif v >= 0 and v == np.floor(v) and v <= 2 ** 31 - 1:
                c = np.int64(v)
                top = max(top, c)
                codes[g] = c if c <= limit else 0
            else:
                valid = False
    return valid, top


def compile_large_path(X, nominal):
    """Compile (or load from numba's cache) the kernels ``prepare`` runs on
    large dense data (``column_stats``, ``_scale_rows``, ``_nominal_codes``
    for int8 and int32 codes), on small C-contiguous ``X`` whose
    ``nominal`` columns hold codes: ``backends.precompile`` calls it, so a
    user's first large run compiles none of them."""
    X = np.ascontiguousarray(X, dtype=float)
    column_stats(X)
    cols = np.flatnonzero(~nominal).astype(np.int64)
    ones = np.ones(len(cols))
    _scale_rows(X, cols, ones, ones * 0, ones, np.empty((len(X), len(cols))))
    cols = np.flatnonzero(nominal).astype(np.int64)
    for dtype in (np.int8, np.int32):
        _nominal_codes(X, cols, np.empty((len(X), len(cols)), dtype))


# Nominal codes from this one up, beyond the number of rows, are re-coded
# (``codes_present``); below it RELIEF-D's P(v | c) table, sized by the
# largest code, takes at most 0.5 MB per feature and class.
SPARSE_CODES = 2 ** 16


def codes_present(nom):
    """Each column's codes re-coded to 0 .. v-1, the values it has in the
    order of their codes (-1, missing, kept): the overlap diff and the laws
    P(v | c) are the same, and codes no row has cost nothing (RELIEF-D's
    tables are sized by the largest code).  ``prepare`` uses it when the
    largest code is at least SPARSE_CODES and the number of rows (codes are
    then missing, and a table sized by them would be large)."""
    out = np.full(nom.shape, -1, np.int32)
    for g in range(nom.shape[1]):
        known = nom[:, g] >= 0
        out[known, g] = np.unique(nom[known, g], return_inverse=True)[1] \
            .ravel()
    top = int(out.max(initial=-1))
    return out.astype(np.int8) if top <= 127 else out


def code_error(f, names=None):
    """The ValueError for nominal feature ``f`` holding a value that is not
    a non-negative integer code."""
    return ValueError(f"Nominal features must hold non-negative integer codes "
                      f"(0, 1, ...), or NaN for missing; "
                      f"{describe_feature(f, names)} does not.")


def _bad_codes(X, cols, names):
    """Raise ``code_error`` for the first of the nominal columns ``cols`` of
    X that holds a value other than a code below 2^31."""
    for f in cols:
        col = X[:, f]
        if np.any(~np.isnan(col) & ((col < 0) | (col != np.floor(col))
                                    | (col > 2 ** 31 - 1))):
            raise code_error(f, names)


def check_size(n):
    """A ValueError unless at least two instances have a known class."""
    if n < 2:
        raise ValueError(f"Relief needs at least two instances with a known "
                         f"class value; the data has {n}.")


def _target_columns(y, nominal_targets):
    """The flags of the nominal targets of a 2-D ``y`` (none by default),
    checked; a ValueError for a nominal target whose known values are not
    integer codes 0, 1, ...."""
    t = y.shape[1]
    if nominal_targets is None:
        return y
    flags = np.asarray(nominal_targets).ravel()
    if flags.shape[0] != t or not all(
            isinstance(flag, (bool, np.bool_)) or flag in (0, 1)
            for flag in flags.tolist()):
        raise ValueError(f"nominal_targets must give one flag (True or "
                         f"False) per target; y has {t} target columns, "
                         f"got {flags.shape[0]} entries: "
                         f"{list(flags.tolist())[:5]}.")
    for c in np.flatnonzero(flags.astype(bool)):
        codes = y[:, c][~np.isnan(y[:, c])]
        if len(codes) and np.any((codes < 0) | (codes != np.round(codes))
                                 | (codes > 2 ** 31 - 1)):
            raise ValueError(f"Target column {c} is nominal but holds "
                             "values that are not integer codes (0, 1, "
                             "..., NaN for missing); give its values as "
                             "codes, or mark it numeric in "
                             "nominal_targets.")
    return y


def _several(y, nominal_targets):
    """Several targets in kernel form (``diffs.Targets``): each numeric
    target divided by the range of its known values (a constant one: 0),
    nominal targets' codes as they are, NaN where missing."""
    nominal = np.zeros(y.shape[1], dtype=bool) if nominal_targets is None \
        else np.asarray(nominal_targets).ravel().astype(bool)
    values = np.array(y, dtype=float, order="C")
    for c in np.flatnonzero(~nominal):
        column = values[:, c]
        known = column[~np.isnan(column)]
        if len(known) == 0:
            continue
        pre, shift, span = range_scale(known.min(), known.max())
        column[:] = (column * pre - shift) / span if span > 0 \
            else np.where(np.isnan(column), np.nan, 0.0)
    return Targets(values, np.ascontiguousarray(nominal))


def target_is_constant(target):
    """Whether no pair of instances differs in the (normalised) target:
    one numeric target all 0, or several of which no numeric one varies
    and no nominal one has two known values."""
    if not isinstance(target, Targets):
        return bool(np.all(target == 0))
    for c in range(target.values.shape[1]):
        column = target.values[:, c]
        if len(np.unique(column[~np.isnan(column)])) > 1:
            return False
    return True


def _classes(y, regression, nominal_targets=None):
    """Class index per row (0 for regression), the number of classes, their
    sizes, the target normalised to [0, 1] (regression; else None) and the
    caller's code of each class index.

    The classes present are re-coded to 0 .. c-1 in the order of their
    codes, so that codes no row uses cost nothing (every table, bucket and
    loop over classes is sized by c, not by the largest code); a class no
    row has adds nothing to any weight, so the weights are those of the
    codes as given."""
    n = len(y)
    if y.ndim == 2:         # several targets: the regression form
        return (np.zeros(n, dtype=np.int64), 1, np.array([n], np.int64),
                _several(y, nominal_targets), np.zeros(1))
    if regression:
        group = np.zeros(n, dtype=np.int64)
        t_lo, t_hi = y.min(), y.max()
        pre, shift, span = range_scale(t_lo, t_hi)
        target = (y * pre - shift) / span if t_hi > t_lo else np.zeros(n)
        return group, 1, np.array([n], dtype=np.int64), target, np.zeros(1)
    # (codes checked by check_class_codes)
    codes, group, counts = np.unique(y.astype(np.int64), return_inverse=True,
                                     return_counts=True)
    return (group.astype(np.int64).ravel(), len(codes),
            counts.astype(np.int64), None, codes)


_INDEX = np.zeros(1, dtype=np.int64)
#: the sparse fields of dense data (none)
NO_SPARSE = SparseRows(_INDEX, np.zeros(0, np.uint32), np.zeros(0),
                       np.zeros(0, dtype=np.bool_), _INDEX,
                       np.zeros(0, np.uint32), np.zeros(0))


def _prepare_sparse(X, y, nominal, regression, names=None,
                    nominal_targets=None, weights=None):
    """Kernel form of sparse data without missing values (zeros are values).

    Memory stays proportional to the stored entries: a CSR and a CSC copy.
    """
    n_features = X.shape[1]
    X, y, (n_dropped, n_weightless), weights = _clean_class(
        X, y, regression, weights)
    n = X.shape[0]
    check_size(n)
    if max(X.shape) >= 2 ** 31:
        raise ValueError("Sparse data must have fewer than 2^31 rows and "
                         "columns.")
    X = sp.csr_matrix(X)
    X.sum_duplicates()
    lo = X.min(axis=0).toarray().ravel()       # implicit zeros included
    hi = X.max(axis=0).toarray().ravel()
    check_finite(lo, hi, names, ~nominal)
    values = X.data
    wrong = nominal[X.indices] & ((values < 0) | (values != np.round(values))
                                  | np.isinf(values))
    if np.any(wrong):
        raise code_error(X.indices[np.argmax(wrong)], names)
    usable = lo < hi
    used = np.concatenate([np.flatnonzero(usable & ~nominal),
                           np.flatnonzero(usable & nominal)]).astype(np.int64)
    X = X[:, used].tocsr()
    X.sort_indices()
    col_nominal = nominal[used]
    pre, _, span = range_scale(lo[used], hi[used])
    scale = np.where(col_nominal, 1.0, 1.0 / span)
    values = X.data * scale[X.indices]
    wide = ~col_nominal & (pre != 1.0)
    if wide.any():      # 1 / span would be subnormal: divide the halves
        on = wide[X.indices]
        values[on] = X.data[on] * 0.5 / span[X.indices[on]]
    X.data = values
    Xc = X.tocsc()
    Xc.sort_indices()
    # 32-bit column and row indices (checked above): less memory, and less
    # to read in the kernels' column walks; unsigned, so numba skips the
    # wrap-around of negative indices (dReliefF on 5,000 x 20,000: -8%)
    sparse_data = SparseRows(
        X.indptr.astype(np.int64), X.indices.astype(np.uint32),
        X.data.astype(float), col_nominal.astype(np.bool_),
        Xc.indptr.astype(np.int64), Xc.indices.astype(np.uint32),
        Xc.data.astype(float))
    group, n_classes, class_counts, target, class_codes = _classes(
        y, regression, nominal_targets)
    return Prepared(num=np.zeros((n, 0)), nom=np.zeros((n, 0), dtype=np.int8),
                    sparse=True, sp=sparse_data, used=used,
                    constant=np.flatnonzero(~usable),
                    all_missing=np.zeros(0, dtype=np.int64),
                    n_features=n_features, group=group, n_classes=n_classes,
                    class_counts=class_counts, target=target,
                    has_missing=False,
                    missing=_missing_tables(np.zeros((n, 0)),
                                            np.zeros((n, 0), dtype=np.int8),
                                            group, n_classes, False)[0],
                    n_dropped=n_dropped, n_weightless=n_weightless,
                    class_codes=class_codes,
                    instance_weights=weights)


def _expected_abs_between(a, b):
    """E|A - B| for A, B uniform over the (sorted) samples ``a`` and ``b``."""
    prefix = np.concatenate([[0.0], np.cumsum(b)])
    below = np.searchsorted(b, a)
    sum_below = prefix[below]
    above = len(b) - below
    total = (a * below - sum_below + (prefix[-1] - sum_below) - a * above)
    return total.mean() / len(b)


def expected_abs_to(law, prefix, v, cumulative=None):
    """E|X - v| for every value of ``v``, X over the sorted sample ``law``
    (prefix sums ``prefix``; RELIEF-D, numeric: ``diffs.mean_abs_to``, as
    the kernels' ``diffs.expected_abs``); with ``cumulative``, the
    cumulative weights of the sample (``prefix`` then sums w x): X takes
    each value with its weight's share.  Weights 1 give the same bits as
    none."""
    count = law.shape[0]
    below = np.searchsorted(law, v, side="left")
    if cumulative is None:
        return mean_abs_to(v, below, prefix[below], prefix[count], count)
    return mean_abs_to(v, cumulative[below], prefix[below], prefix[count],
                       cumulative[count])


# RELIEF-D's values are looked up (``Expectations``) up to this many bytes:
# n x (numeric columns with a missing value) x classes x 8; beyond, each
# term with one value missing searches its class law.
EXPECTATIONS_MAX_BYTES = 256_000_000


def looked_up(prep):
    """The ``Expectations`` of dense ``prep`` with missing values in
    numeric columns, where they fit in EXPECTATIONS_MAX_BYTES (else
    ``NO_EXPECTATIONS``): each known value's E|X - v| in every class law of
    its column, by ``expected_abs_to`` (NumPy's search and
    ``diffs.mean_abs_to``: the bits of the kernels' ``diffs.expected_abs``)."""
    if prep.sparse or not prep.has_missing:
        return NO_EXPECTATIONS
    n, a_num = prep.num.shape
    columns = np.flatnonzero(np.isnan(prep.num).any(axis=0))
    if columns.shape[0] == 0 or \
            n * columns.shape[0] * prep.n_classes * 8 > EXPECTATIONS_MAX_BYTES:
        return NO_EXPECTATIONS
    column = np.full(a_num, -1, np.int64)
    column[columns] = np.arange(columns.shape[0])
    values = np.zeros((n, columns.shape[0], prep.n_classes))
    for s, f in enumerate(columns):
        x = prep.num[:, f]
        known = x == x
        for c in range(prep.n_classes):
            law, prefix, cumulative = class_law(prep, f, c)
            values[known, s, c] = expected_abs_to(law, prefix, x[known],
                                                  cumulative)
    return Expectations(values, column)


def class_law(prep, f, c):
    """RELIEF-D's law of numeric kernel column f in class c
    (``MissingTables``): the sorted known values, their prefix sums and,
    with instance weights, their cumulative weights (else None) -- the
    arguments of ``expected_abs_to``."""
    tables = prep.missing
    start, count = tables.num_start[f, c], tables.num_count[f, c]
    pstart = tables.num_pstart[f, c]
    cumulative = None if prep.law_weights is None \
        else prep.law_weights[pstart:pstart + count + 1]
    return (tables.num_sorted[start:start + count],
            tables.num_prefix[pstart:pstart + count + 1], cumulative)


def _weighted_law(values, weights):
    """(sorted values, weighted prefix sums, cumulative weights) of a
    weighted sample."""
    order = np.argsort(values, kind="stable")
    values, weights = values[order], weights[order]
    zero = np.zeros(1)
    return (values, np.concatenate([zero, np.cumsum(values * weights)]),
            np.concatenate([zero, np.cumsum(weights)]), weights)


def _weighted_numeric_laws(num, group, n_classes, weights):
    """RELIEF-D's numeric tables (``MissingTables``' first six) of weighted
    instances: each class law's values sorted, their prefix sums of w x,
    E|X1 - X2| of the weighted laws; and the cumulative weights (laid out
    as the prefix sums)."""
    a_num, C = num.shape[1], n_classes
    start = np.zeros((a_num, C), dtype=np.int64)
    pstart, count = np.zeros_like(start), np.zeros_like(start)
    both = np.zeros((a_num, C, C))
    parts = ([], [], [])
    s_pos = p_pos = 0
    for f in range(a_num):
        col = num[:, f]
        known = ~np.isnan(col)
        if known.all():
            continue
        overall = _weighted_law(col[known], weights[known])
        laws = []
        for c in range(C):
            in_c = known & (group == c)
            laws.append(_weighted_law(col[in_c], weights[in_c])
                        if in_c.any() else overall)
        for c, (vals, prefix, cumulative, _) in enumerate(laws):
            start[f, c], pstart[f, c], count[f, c] = s_pos, p_pos, len(vals)
            for part, values in zip(parts, (vals, prefix, cumulative)):
                part.append(values)
            s_pos += len(vals)
            p_pos += len(vals) + 1
        for c1, (vals, _, _, w1) in enumerate(laws):
            for c2, (_, prefix, cumulative, _) in enumerate(laws):
                law2 = laws[c2][0]
                both[f, c1, c2] = np.dot(w1, expected_abs_to(
                    law2, prefix, vals, cumulative)) / w1.sum()
    cat = (lambda p: np.concatenate(p) if p else np.zeros(0))
    return (cat(parts[0]), cat(parts[1]), start, pstart, count, both,
            cat(parts[2]))


def _missing_tables(num, nom, group, n_classes, has_missing, weights=None):
    """Class-conditional laws for RELIEF-D; empty unless values are missing;
    and with instance ``weights`` (None: every instance counts once), the
    laws' cumulative weights (``Prepared.law_weights``; else None).

    Only features that have a missing value get entries: the kernels look a
    feature up only when one of the two values is missing.  With weights,
    every law counts an instance with its weight.
    """
    a_num, a_nom = num.shape[1], nom.shape[1]
    C = n_classes
    empty = np.zeros(0)
    if not has_missing:
        z = np.zeros((a_num, C), dtype=np.int64)
        return MissingTables(empty, empty, z, z, z,
                             np.zeros((a_num, C, C)),
                             np.zeros((a_nom, C, 1)),
                             np.zeros((a_nom, C, C))), None
    law_weights = None
    if weights is not None:
        *numeric, law_weights = _weighted_numeric_laws(num, group, C,
                                                       weights)
    else:
        numeric = _numeric_laws(num, group, C)
    prob, nom_both = _nominal_laws(nom, group, C, weights)
    return MissingTables(*numeric, prob, nom_both), law_weights


def _numeric_laws(num, group, C):
    """RELIEF-D's numeric tables (``MissingTables``' first six)."""
    a_num = num.shape[1]
    empty = np.zeros(0)
    sorted_parts, prefix_parts = [], []
    start = np.zeros((a_num, C), dtype=np.int64)
    pstart = np.zeros((a_num, C), dtype=np.int64)
    count = np.zeros((a_num, C), dtype=np.int64)
    both = np.zeros((a_num, C, C))
    s_pos = p_pos = 0
    for f in range(a_num):
        col = num[:, f]
        if not np.isnan(col).any():
            continue
        known = ~np.isnan(col)
        overall = np.sort(col[known])
        laws = []
        for c in range(C):
            vals = np.sort(col[known & (group == c)])
            laws.append(vals if len(vals) else overall)
        for c, vals in enumerate(laws):
            start[f, c], pstart[f, c], count[f, c] = s_pos, p_pos, len(vals)
            sorted_parts.append(vals)
            prefix_parts.append(np.concatenate([[0.0], np.cumsum(vals)]))
            s_pos += len(vals)
            p_pos += len(vals) + 1
        for c1 in range(C):
            for c2 in range(C):
                both[f, c1, c2] = _expected_abs_between(laws[c1], laws[c2])
    cat = (lambda parts: np.concatenate(parts) if parts else empty)
    return (cat(sorted_parts), cat(prefix_parts), start, pstart, count,
            both)


def _nominal_laws(nom, group, C, weights=None):
    """RELIEF-D's nominal tables: P(v | c) (``weights``: each instance
    counts its weight) and 1 - sum_u P(u | c1) P(u | c2)."""
    a_nom = nom.shape[1]
    n_values = int(nom.max()) + 1 if nom.size else 1
    prob = np.zeros((a_nom, C, max(n_values, 1)))
    nom_both = np.zeros((a_nom, C, C))
    for g in range(a_nom):
        col = nom[:, g]
        if not (col < 0).any():
            continue
        known = col >= 0
        if weights is not None:
            prob[g] = _weighted_frequencies(col, known, group, C, n_values,
                                            weights)
            nom_both[g] = 1.0 - prob[g] @ prob[g].T
            continue
        overall = np.bincount(col[known], minlength=n_values) / known.sum()
        for c in range(C):
            in_c = col[known & (group == c)]
            prob[g, c] = (np.bincount(in_c, minlength=n_values) / len(in_c)
                          if len(in_c) else overall)
        nom_both[g] = 1.0 - prob[g] @ prob[g].T
    return prob, nom_both


def _weighted_frequencies(col, known, group, C, n_values, weights):
    """P(v | c) of a nominal column: each class's weighted value
    frequencies (a class with no known value: all known values')."""
    def law(rows):
        counts = np.bincount(col[rows], weights=weights[rows],
                             minlength=n_values)
        return counts / counts.sum()
    overall = law(known)
    return np.array([law(known & (group == c)) if np.any(known & (group == c))
                     else overall for c in range(C)])
