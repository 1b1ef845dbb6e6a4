"""Relief feature selection for scikit-learn users.

:class:`ReliefFSelector` is a scikit-learn transformer in the style of
:class:`sklearn.feature_selection.SelectKBest`: ``fit`` estimates one Relief
weight per feature with the same engine as the Orange scorers
(:func:`orangecontrib.relief.core.relieff`), and ``transform`` keeps the
best-weighted features::

    from sklearn.pipeline import Pipeline
    from sklearn.neighbors import KNeighborsClassifier
    from orangecontrib.relief.sklearn import ReliefFSelector

    model = Pipeline([("relief", ReliefFSelector(n_features_to_select=5)),
                      ("knn", KNeighborsClassifier())])

A continuous target (``type_of_target(y) == "continuous"``) switches to the
regression form, RReliefF; any other target is a class label.

:class:`TuRFSelector`, :class:`IterSelector` and :class:`VLSSelector` are
scikit-rebate's TuRF, Iter and VLS around a ReliefFSelector; the selectors
take scikit-rebate's parameter names too (``n_neighbors``,
``discrete_threshold``, ``verbose``, ``num_scores_to_return``).
"""
import numbers
import time
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, clone
from sklearn.feature_selection import SelectorMixin
from sklearn.preprocessing import LabelEncoder
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import _check_sample_weight, check_is_fitted

from . import stats
from .core import ranking, relieff
from .core.backends.cuda.backend import check_device
from .core.options import is_real, is_whole, whole_number
from .core.registry import lookup
from .core.variants import variant as variant_named
from . import corelearn
from .wrappers.iterated import iter_relief
from .wrappers.turf import turf
from .wrappers.vls import vls
from .stats.redundancy import THRESHOLD, TOP, relief_redundancy

try:
    from sklearn.utils.validation import validate_data
except ImportError:  # scikit-learn < 1.6
    def validate_data(estimator, X, y="no_validation", reset=True,
                      ensure_all_finite=True, **check_params):
        """Stand-in for ``sklearn.utils.validation.validate_data``."""
        return estimator._validate_data(X, y, reset=reset,
                                        force_all_finite=ensure_all_finite,
                                        **check_params)

__all__ = ["ReliefFSelector", "TuRFSelector", "IterSelector", "VLSSelector"]


def _is_dataframe(X):
    return hasattr(X, "columns") and hasattr(X, "dtypes") and hasattr(X, "iloc")


def _is_text_or_category(dtype):
    """True for pandas ``category``, ``object`` and string dtypes."""
    import pandas as pd
    return (isinstance(dtype, pd.CategoricalDtype)
            or pd.api.types.is_object_dtype(dtype)
            or pd.api.types.is_string_dtype(dtype))


def _value_codes(column):
    """Codes 0, 1, ... of the distinct known values of a numeric column
    (NaN stays NaN): nominal features are compared by equality only."""
    codes = np.full(column.shape, np.nan)
    known = ~np.isnan(column)
    codes[known] = np.unique(column[known], return_inverse=True)[1]
    return codes


def _is_time(dtype):
    """True for pandas date/time and duration dtypes."""
    import pandas as pd
    return (pd.api.types.is_datetime64_any_dtype(dtype)
            or pd.api.types.is_timedelta64_dtype(dtype))


def _seconds(column):
    """A date/time or duration column as seconds (NaT missing): a numeric
    feature, as Orange's TimeVariable is (diff divides by the range, so the
    unit does not matter)."""
    import pandas as pd
    if pd.api.types.is_datetime64_any_dtype(column.dtype):
        column = column - pd.Timestamp(0, tz=column.dt.tz)
    return column.dt.total_seconds().to_numpy(dtype=float)


def _check_target_values(y):
    """A ValueError naming the rows where y has no value (None, NaN, NaT),
    and for labels of types that cannot be ordered (e.g. str and int)."""
    import pandas as pd
    if y is None:
        return                      # validate_data says y is required
    values = np.asarray(y)
    if values.dtype.kind not in "OfMmUS":
        return
    missing = np.flatnonzero(np.asarray(pd.isna(values)).reshape(
        len(values), -1).any(axis=1))
    if missing.size:
        rows = ", ".join(map(str, missing[:5])) + (
            ", ..." if missing.size > 5 else "")
        raise ValueError(f"y has no value (None or NaN) in {missing.size} "
                         f"row(s): {rows} (0-based). Relief needs the class "
                         "or target of every training row; drop those rows "
                         "before fit.")
    if values.dtype.kind != "O":
        return
    # (several targets: each column is one target's labels or numbers)
    for column in values.reshape(len(values), -1).T:
        try:
            np.unique(column)               # as LabelEncoder orders them
        except TypeError:
            names = ", ".join(sorted({type(value).__name__
                                      for value in column}))
            raise ValueError(f"y mixes labels of types that cannot be "
                             f"ordered ({names}); give every label the same "
                             "type, e.g. all strings.") from None


def _several_targets(y):
    """Whether y has several target columns (a 2-D y of more than one),
    asked of its shape alone: scikit-learn's checks pass wrappers that
    refuse NumPy's functions."""
    shape = getattr(y, "shape", None)
    if shape is None and isinstance(y, (list, tuple)):
        shape = np.asarray(y, dtype=object).shape
    return shape is not None and len(shape) == 2 and shape[1] > 1


def _n_distinct(X):
    """The number of distinct known values of every column (sparse: the
    implicit zeros count as a value)."""
    if not sp.issparse(X):
        return np.array([np.unique(column[~np.isnan(column)]).size
                         for column in X.T])
    X = sp.csc_matrix(X)
    counts = np.zeros(X.shape[1], dtype=np.int64)
    for j in range(X.shape[1]):
        stored = X.data[X.indptr[j]:X.indptr[j + 1]]
        values = np.unique(stored[~np.isnan(stored)])
        if stored.size < X.shape[0]:
            values = np.union1d(values, [0.0])
        counts[j] = values.size
    return counts


def _n_categories(frame):
    """The number of declared categories of each ``category`` column of a
    DataFrame (0 for the other columns)."""
    import pandas as pd
    return np.array([len(dtype.categories)
                     if isinstance(dtype, pd.CategoricalDtype) else 0
                     for dtype in frame.dtypes])


def _n_values(X, nominal, categories):
    """compat="weka": the number of values of each nominal feature -- its
    declared categories, or the number of codes -- for Weka's diff of a
    missing value, 1 - 1/(number of values)."""
    n_values = np.zeros(X.shape[1])
    for j in np.flatnonzero(nominal):
        column = X[:, j].toarray().ravel() if sp.issparse(X) else X[:, j]
        codes = int(np.fmax.reduce(column, initial=-1.0)) + 1
        n_values[j] = max(codes, 1, 0 if categories is None
                          else categories[j])
    return n_values


class _RankingSelector(SelectorMixin, BaseEstimator):
    """What the selectors share: the weights ranked, ``top_features_`` as
    scikit-rebate has it, the support mask, ``verbose`` and the tags."""

    def _rank(self, weights, n_features_to_select):
        """Record ``weights`` as ``feature_importances_``, their ranking and
        the number of features ``transform`` keeps."""
        self.feature_importances_ = weights
        order = ranking(weights)
        self.top_features_ = order
        self.ranking_ = np.empty(len(order), dtype=np.int64)
        self.ranking_[order] = np.arange(1, len(order) + 1)
        self.n_features_to_select_ = self._n_selected(n_features_to_select,
                                                      len(order))
        self._passing = None

    def _say(self, text):
        """With ``verbose``: print what fit is doing, as scikit-rebate does."""
        if self.verbose:
            print(f"{type(self).__name__}: {text}", flush=True)

    def _done(self, started):
        """With ``verbose``: the time fit took and the best features."""
        names = getattr(self, "feature_names_in_", None)
        top = [str(names[j]) if names is not None else f"x{j}"
               for j in self.top_features_[:5]]
        self._say(f"done in {time.perf_counter() - started:.2f} s; best: "
                  f"{', '.join(top)}")

    def _get_support_mask(self):
        """Boolean mask of the ``n_features_to_select_`` best-ranked features
        (with ``threshold``: among those that pass it)."""
        check_is_fitted(self)
        if getattr(self, "_chosen", None) is not None:   # redundancy=True
            return self._chosen.copy()
        if getattr(self, "_passing", None) is None:
            return self.ranking_ <= self.n_features_to_select_
        order = np.argsort(self.ranking_)
        keep = order[self._passing[order]][:self.n_features_to_select_]
        mask = np.zeros(len(order), dtype=bool)
        mask[keep] = True
        return mask

    @staticmethod
    def _n_selected(k, n_features):
        """The number of features kept for ``n_features_to_select=k``."""
        if k is None:
            return max(1, n_features // 2)
        if isinstance(k, numbers.Integral):
            if k > n_features:
                warnings.warn(f"n_features_to_select={k} is more than the "
                              f"{n_features} features; all are selected.",
                              UserWarning, stacklevel=4)
            return min(int(k), n_features)
        return max(1, int(n_features * k))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.sparse = True
        tags.target_tags.required = True
        return tags

    def _more_tags(self):  # scikit-learn < 1.6
        return {"allow_nan": True, "requires_y": True}


class ReliefFSelector(_RankingSelector):
    """Select the features with the largest ReliefF, dReliefF or pdReliefF
    weights.

    ReliefF (Kononenko 1994) estimates for every feature A

        W[A] = P(different value of A | nearest instance of another class)
               - P(different value of A | nearest instance of the same class)

    by visiting m instances R and averaging ``diff(A, R, M) - diff(A, R, H)``
    over the k nearest hits H and misses M of each other class, weighted by
    the prior of the miss's class [1]_.  dReliefF and pdReliefF (Prat Masramon &
    Belanche 2005 [3]_) use the running estimates W_{t-1} to weight the distance
    that picks the neighbours.  A continuous target gives RReliefF
    (Robnik-Šikonja & Kononenko 2003 [2]_).  ``doc/semantics.md`` defines every
    number exactly.

    Parameters
    ----------
    variant : {"relieff", "drelieff", "pdrelieff", "irelief"}, default="relieff"
        No distance weights (ReliefF), the running estimate
        w_A = max(0, W_{t-1}[A]) (dReliefF), or the progressive blend
        f(w, t) = (1 - w) / t^T + w (pdReliefF); or I-RELIEF (Sun 2007):
        soft neighbourhoods, a kernel exp(-d / sigma) over every pair,
        iterated to a fixed point (classification; the options of visits
        and neighbours do not apply).
    n_features_to_select : int, float or None, default=None
        How many features ``transform`` keeps, as in
        :class:`~sklearn.feature_selection.RFE`: None keeps half of them
        (rounded down), an int that many, a float in (0, 1] that fraction
        (rounded down).  At least one feature is always kept; an int above
        the number of features keeps all of them, with a warning.
    k_nearest : int or float, default=10
        Nearest hits, and nearest misses of each other class, per visited
        instance; instances tied with the k-th share its slots.  Used by
        ``neighbours="k"`` only.  A float f in (0, 1) is a fraction of the
        n training rows, k = max(1, int(f * n / 2)), as scikit-rebate reads
        it (the k hits and k misses together make f * n).
    n_neighbors : int, float or None, default=None
        scikit-rebate's name for ``k_nearest`` (give one of them).
    redundancy : bool, default=False
        Keep ``n_features_to_select`` features each adding what the kept
        ones do not already say: walk down the ranking and skip a feature
        whose per-visit updates follow those of a kept one (correlation of
        the update sequences >= ``redundancy_threshold``, measured in the
        same run among the top max(50, ``n_features_to_select_``) features;
        ``orangecontrib.relief.stats.redundancy``).  Exact, noisy, monotone and
        discretised copies are skipped; interacting features (XOR) are
        not redundant and are both kept.  Classification, visiting variants
        (not I-RELIEF); not with ``threshold`` or ``covariates``.
    redundancy_threshold : float in (0, 1], default=0.65
        The update correlation from which a feature counts as redundant.
    threshold : str or None, default=None
        Select the features whose weights are significant instead of a
        fixed number: ``"fdr:0.05"`` keeps those with Benjamini-Hochberg
        q < 0.05, ``"p:0.01"`` those with p < 0.01, ``"fwer:0.05"`` those
        with the permutation test's family-wise (max-statistic) p < 0.05
        (``orangecontrib.relief.stats``).  With ``n_features_to_select``
        also given, at most that many of them (the best-ranked).  Costs
        ``n_permutations`` refits with ``significance="permutation"``.
        Permutation p-values are never below 1 / (n_permutations + 1):
        ``fit`` raises a ValueError when that makes the threshold
        unreachable (e.g. ``"fdr:0.05"`` with 19 permutations), rather
        than select nothing after the refits.
    significance : str or None, default=None
        The test behind ``threshold``, a name in
        ``orangecontrib.relief.stats.TESTS``: ``"permutation"`` (the
        default without ``covariates``: permutation p-values with the
        target permuted; valid for every variant; tests the complete null),
        ``"feature_permutation"`` (each feature's column permuted in turn:
        the null of an irrelevant feature among relevant ones; n_features
        times the refits), ``"stir"`` (STIR's t-test from one run; ReliefF
        classification; a fast screen, anti-conservative),
        ``"npdr_permutation"`` (the default with ``covariates``: NPDR's
        regressions adjusted for the covariates, p from permutations of
        the target that keep the covariates' part) or ``"npdr"`` (NPDR's
        one-run p; anti-conservative).
    covariates : array-like of int or None, default=None
        Columns of ``X`` to adjust for (age, sex, batch, ...) with NPDR's
        tests: they take no part in the distance, are not scored
        (``feature_importances_`` NaN) and never selected.  Needs a
        ``threshold``.
    n_permutations : int, default=99
        Refits with the target permuted, for the permutation tests.
    neighbours : {"k", "surf", "surf*", "multisurf", "multisurf*"}, default="k"
        The neighbourhood rule (as in scikit-rebate): the k nearest hits and
        misses, or every instance within a radius -- SURF's mean distance
        over all pairs, MultiSURF's mean distance from the visited instance
        minus half its standard deviation; the starred rules also score the
        far instances with the opposite sign.  ``doc/semantics.md``,
        "Neighbourhood rules", defines them.
    n_iterations : int or None, default=None
        m, the number of visited instances, in the order
        ``numpy.random.default_rng(random_state).permutation(n)[:m]``;
        every instance once when None.
    random_state : int or None, default=0
        Seed of the visiting order (it matters for dReliefF and pdReliefF,
        and for ReliefF when ``n_iterations`` < n).
    discrete_features : "auto", bool or array-like, default="auto"
        Which features are nominal (compared by equality: diff is 0 or 1);
        the others are numeric (``diff = |x1 - x2| / (max - min)``).

        - ``"auto"``: with a pandas DataFrame, the columns of ``category``,
          ``object`` or string dtype are nominal and all others numeric;
          with a numpy array or a sparse matrix every feature is numeric.
          (No guessing from the values: a 0/1 column gives the same diff
          either way, and a column of small integers is often an ordinal
          measurement.)
        - ``True`` / ``False``: all features nominal / all numeric.
        - a boolean mask of shape (n_features,) or an array of column
          indices.

        ``discrete_threshold`` (scikit-rebate's rule) replaces "auto".
        Date/time and duration columns of a DataFrame are numeric (seconds).

        Nominal columns may hold any values (numbers in a numpy array,
        numbers, strings or categories in a DataFrame; non-negative integer
        codes in a sparse matrix, where the implicit zeros are a value);
        NaN / None is a missing value.
    discrete_threshold : int or None, default=None
        scikit-rebate's rule instead of ``discrete_features``: a feature
        with at most this many distinct known values is nominal, the others
        numeric (text and category columns of a DataFrame stay nominal);
        and a numeric target with more distinct values than this is
        continuous (RReliefF).  scikit-rebate's default is 10; None leaves
        ``discrete_features`` and ``type_of_target`` to decide.
    categorical_features, categorical_threshold : default=None
    multiclass_threshold, label_type : default=None
        scikit-rebate 0.8.4's names: column indices of the nominal features
        (``discrete_features``); ``discrete_threshold`` for the features
        alone and for the target alone; and the target's kind,
        "binary", "multiclass" (a class) or "continuous" (RReliefF).
    weight_by_distance : bool, default=False
        Weight the i-th nearest neighbour by exp(-(i / sigma)^2) (Weka's
        ``-W``).
    sigma : float, default=2.0
        Width of those rank weights (Weka's ``-A``).
    misses : {"per_class", "any"}, default="per_class"
        k misses of every other class (ReliefF) or k misses among all other
        classes together (Relief-E).  Ignored for a continuous target.
    T : float or None, default=None
        pdReliefF's steepness; 2 / ln(m) when None.
    n_jobs : int or None, default=None
        Threads for the kernels; None or -1 means all cores.
    device : {None, "cpu", "cuda", "auto"}, default=None
        Where the visits run, the significance test's refits included:
        this machine's cores ("cpu"; None: the environment variable
        ``ORANGE3_RELIEF_DEVICE``, else "cpu"), an NVIDIA GPU ("cuda":
        ``pip install "orange3-relief[gpu]"``; the same weights to ~1e-15;
        a RuntimeError at ``fit`` says what is missing), or the GPU where
        there is one, else the CPU with a warning once ("auto").
        ``compat="weka"`` and I-RELIEF run on the CPU only (a ValueError
        with "cuda").  Checked at ``fit``.
    verbose : bool, default=False
        Print the data ``fit`` sees (instances, features, nominal ones,
        target, k), the time it took and the best features.
    estimator : str, default=None
        One of CORElearn's Relief estimators by its name (R's ``attrEval``;
        ``orangecontrib.relief.corelearn.names()``), e.g. "ReliefFexpRank"
        or "RReliefFequalK": it sets ``k_nearest``, ``weight_by_distance``,
        ``sigma`` and ``misses`` (given values of these are not used).
        One for the other kind of target, or one not computed here, is a
        ValueError at ``fit``.
    costs : array-like of shape (n_classes, n_classes), default=None
        The cost matrix of CORElearn's cost-sensitive estimators
        (``estimator=`` ReliefFexpC, ReliefFavgC, ReliefFpe, ReliefFpa or
        ReliefKukar): ``costs[i, j]`` the cost of predicting class j for an
        instance of class i, rows and columns in the order of
        ``classes_`` (the sorted class labels); None: every cost 1.  Given
        with another estimator (or none), of another size than the classes,
        or with a negative or non-finite cost: a ValueError at ``fit``.
    compat : {None, "weka"}, default=None
        ``"weka"``: the numbers of Weka's ``ReliefFAttributeEval``, to the
        last bit (``random_state`` is then Weka's ``-D`` seed, whose default
        in Weka is 1, and ``n_iterations`` its ``-M``).  Weka's diff of a
        missing nominal value depends on the number of declared values: the
        categories of a pandas ``category`` column, otherwise the distinct
        values seen.

    Attributes
    ----------
    feature_importances_ : ndarray of shape (n_features,)
        The Relief weights W[A], in [-1, 1]; 0 for a constant feature, NaN
        for a feature with no known value and for the covariates (such
        features rank last).
    ranking_ : ndarray of shape (n_features,)
        Rank of each feature, 1 = largest weight; ties keep column order.
    top_features_ : ndarray of shape (n_features,)
        The feature indices from the largest weight down (scikit-rebate's
        attribute): ``top_features_[:k]`` are the k features kept.
    n_features_to_select_ : int
        The number of features ``transform`` keeps.
    p_values_, q_values_ : ndarray of shape (n_features,)
        With ``threshold``: each feature's p-value and Benjamini-Hochberg
        q-value.
    nominal_ : ndarray of bool, shape (n_features,)
        The features that were treated as nominal.
    regression_ : bool
        True when the target was continuous (RReliefF), or y had several
        target columns (multi-target RReliefF).
    nominal_targets_ : ndarray of shape (n_targets,)
        With several targets: which are nominal (absent otherwise).
    classes_ : ndarray of shape (n_classes,)
        The class labels (classification only).
    n_iterations_ : int
        m, the number of instances visited.
    redundant_with_ : ndarray of int, shape (n_features,)
        With ``redundancy=True``: for each feature, the kept feature whose
        per-visit updates it follows (``redundancy.update_redundancy`` at
        least ``redundancy_threshold``), -1 for none or unmeasured.
    redundancy_features_, redundancy_matrix_ : ndarray
        With ``redundancy=True``: the top max(50, ``n_features_to_select_``)
        features, best first, and their redundancy matrix.
    n_features_in_ : int
        Number of features seen during ``fit``.
    feature_names_in_ : ndarray of shape (n_features,)
        Column names seen during ``fit``, when ``X`` had string column
        names (a pandas DataFrame).

    See Also
    --------
    orangecontrib.relief.core.relieff : the engine, on numpy arrays.
    orangecontrib.relief.ReliefF : the same weights as an Orange scorer.
    sklearn.feature_selection.SelectKBest : univariate selection.

    Notes
    -----
    Missing values (NaN) are allowed in ``X`` and handled by RELIEF-D: the
    diff of a missing value is its expected value under the class-conditional
    distribution.  Sparse input stays sparse (memory proportional to the
    stored entries; implicit zeros are values, not missing), unless it stores
    NaN, in which case the engine scores it as dense data with a
    ``ReliefWarning``.

    References
    ----------
    .. [1] Kononenko, I. (1994). Estimating attributes: analysis and
       extensions of RELIEF. ECML-94, 171-182.
    .. [2] Robnik-Šikonja, M., Kononenko, I. (2003). Theoretical and
       empirical analysis of ReliefF and RReliefF. Machine Learning 53,
       23-69.
    .. [3] Prat Masramon, G., Belanche Muñoz, L. A. (2005). Toward better
       feature weighting algorithms: a focus on Relief.

    Examples
    --------
    >>> import numpy as np
    >>> from orangecontrib.relief.sklearn import ReliefFSelector
    >>> rng = np.random.default_rng(0)
    >>> X = rng.random((100, 4))
    >>> y = (X[:, 2] > 0.5).astype(int)
    >>> selector = ReliefFSelector(n_features_to_select=1).fit(X, y)
    >>> selector.get_support()
    array([False, False,  True, False])
    >>> selector.transform(X).shape
    (100, 1)
    """

    def __init__(self, variant="relieff", n_features_to_select=None,
                 k_nearest=10, n_iterations=None, random_state=0,
                 discrete_features="auto", weight_by_distance=False,
                 sigma=2.0, misses="per_class", T=None, n_jobs=None,
                 compat=None, neighbours="k", threshold=None,
                 significance=None, n_permutations=99, covariates=None,
                 device=None, n_neighbors=None, discrete_threshold=None,
                 verbose=False, categorical_features=None,
                 categorical_threshold=None, multiclass_threshold=None,
                 label_type=None, redundancy=False,
                 redundancy_threshold=THRESHOLD, estimator=None,
                 costs=None):
        self.estimator = estimator
        self.costs = costs
        self.variant = variant
        self.n_features_to_select = n_features_to_select
        self.k_nearest = k_nearest
        self.n_iterations = n_iterations
        self.random_state = random_state
        self.discrete_features = discrete_features
        self.weight_by_distance = weight_by_distance
        self.sigma = sigma
        self.misses = misses
        self.T = T
        self.n_jobs = n_jobs
        self.compat = compat
        self.neighbours = neighbours
        self.threshold = threshold
        self.significance = significance
        self.n_permutations = n_permutations
        self.covariates = covariates
        self.device = device
        self.n_neighbors = n_neighbors
        self.discrete_threshold = discrete_threshold
        self.verbose = verbose
        self.categorical_features = categorical_features
        self.categorical_threshold = categorical_threshold
        self.multiclass_threshold = multiclass_threshold
        self.label_type = label_type
        self.redundancy = redundancy
        self.redundancy_threshold = redundancy_threshold

    def fit(self, X, y, sample_weight=None):
        """Estimate the Relief weight of every feature.

        Parameters
        ----------
        X : {array-like, sparse matrix, DataFrame} of shape (n_samples, n_features)
            The training data; NaN marks a missing value.
        y : array-like of shape (n_samples,) or (n_samples, n_targets)
            Class labels, or numbers for a continuous target (RReliefF).
            Several columns are several targets, each a class or numbers
            as a single y would be: multi-target RReliefF
            (``core.relieff``; ``nominal_targets_`` says which are
            nominal).
        sample_weight : array-like of shape (n_samples,), optional
            Weights >= 0 of the samples (scikit-learn's convention, checked
            as scikit-learn checks them): a sample of weight w counts as w
            copies of itself (the engine's ``instance_weights``), so integer
            weights give the weights of X with each row repeated w times;
            weight 0 leaves a sample out.  The significance test
            (``threshold``) permutes y with each weight kept with its row.
            None (or all 1): every sample counts once.

        Returns
        -------
        self : ReliefFSelector
            The fitted selector.
        """
        self._check_n_features_to_select()
        check_device(self.device)
        rule = self._threshold_rule()
        started = time.perf_counter()
        X, y, nominal, options = self._prepare(X, y, self, sample_weight)
        if rule is not None:
            self._check_resolution(*rule, X.shape[1])
        covariates = self._covariate_columns(X.shape[1], rule)
        features = np.setdiff1d(np.arange(X.shape[1]), covariates)
        names = options["feature_names"]
        if names is not None:
            options["feature_names"] = list(np.asarray(names)[features])
        Xf = X[:, features] if covariates.size else X
        if self.redundancy:
            result = self._fit_non_redundant(Xf, y, nominal[features],
                                             options, rule, covariates)
        else:
            self._chosen = None
            result = self._run(Xf, y, nominal[features], options)
        weights = np.full(X.shape[1], np.nan)
        weights[features] = result.weights
        self.n_iterations_ = result.n_iterations
        self._rank(weights, self.n_features_to_select)
        if rule is not None:
            if covariates.size:
                options.update(self._covariate_options(X, nominal,
                                                       covariates, names))
            passing = self._significant(Xf, y, nominal[features], options,
                                        *rule)
            self._passing = np.zeros(X.shape[1], dtype=bool)
            self._passing[features] = passing
            if self.n_features_to_select is None:
                self.n_features_to_select_ = int(self._passing.sum())
            if covariates.size:
                for name in ("p_values_", "q_values_"):
                    full = np.full(X.shape[1], np.nan)
                    full[features] = getattr(self, name)
                    setattr(self, name, full)
        self._done(started)
        return self

    def _run(self, X, y, nominal, options):
        """The engine's run, or CORElearn's estimator on top of it."""
        if self.estimator is None or \
                corelearn.check(self.estimator).options is not None:
            return relieff(X, y, nominal, **options)
        return corelearn.run(self.estimator, X, y, nominal,
                             options["regression"],
                             costs=options.get("costs"),
                             instance_weights=options.get("instance_weights"),
                             n_iterations=options.get("n_iterations"),
                             random_state=options.get("random_state"))

    def _prepare(self, X, y, owner, sample_weight=None):
        """Check the training data and encode it for the engine: (X as
        floats with nominal columns as value codes, y as class codes or
        numbers, the nominal mask, ``core.relieff``'s options, with
        ``sample_weight`` checked as scikit-learn does as its
        ``instance_weights``).  What
        scikit-learn records at fit (``n_features_in_``, ``classes_``,
        ``nominal_``, ...) goes on ``owner``: this selector, or the TuRF,
        Iter or VLS selector around it."""
        spec, feature_threshold, target_threshold = self._discrete_rules()
        _check_target_values(y)
        nominal, categories = None, None
        if _is_dataframe(X):
            nominal = self._nominal_mask(spec, X.shape[1], np.array(
                [_is_text_or_category(dtype) for dtype in X.dtypes]))
            categories = _n_categories(X)
            X = self._encode_frame(X, nominal)
        several = _several_targets(y)
        X, y = validate_data(owner, X, y, accept_sparse="csr",
                             ensure_all_finite="allow-nan",
                             ensure_min_samples=2, dtype=np.float64,
                             multi_output=several)
        weights = {}
        if sample_weight is not None:
            sample_weight = _check_sample_weight(sample_weight, X,
                                                 ensure_non_negative=True)
            # a sample of weight 0 is not in the data: what is read from
            # the data (nominal features, classes) is read without it
            kept = np.flatnonzero(sample_weight > 0)
            X, y = X[kept], np.asarray(y)[kept]
            weights["instance_weights"] = sample_weight[kept]
        if nominal is None:
            nominal = self._nominal_mask(spec, X.shape[1],
                                         np.zeros(X.shape[1], dtype=bool))
        if feature_threshold is not None:
            nominal |= _n_distinct(X) <= feature_threshold
        if nominal.any() and not sp.issparse(X):
            X = X.copy()
            for j in np.flatnonzero(nominal):
                X[:, j] = _value_codes(X[:, j])
        owner.nominal_ = nominal

        owner.__dict__.pop("nominal_targets_", None)   # from an earlier fit
        declared = {}
        if several:
            y, owner.nominal_targets_ = self._target_columns(
                y, target_threshold)
            declared["nominal_targets"] = owner.nominal_targets_
        owner.regression_ = several or self._is_regression(
            y, target_threshold)
        if owner.regression_:
            y = np.asarray(y, dtype=float)
            owner.__dict__.pop("classes_", None)   # from an earlier fit
        else:
            if self.label_type is None:      # else y's values are classes
                check_classification_targets(y)
            encoder = LabelEncoder()
            y = encoder.fit_transform(y)
            owner.classes_ = encoder.classes_

        if self.compat == "weka":
            declared.update(
                n_values=_n_values(X, nominal, categories),
                n_class_values=None if owner.regression_
                else len(owner.classes_))
        options = dict(
            regression=owner.regression_, variant=self.variant,
            n_iterations=self.n_iterations,
            k_nearest=self._k_nearest(
                X.shape[0] if sample_weight is None
                else float(weights["instance_weights"].sum())),
            random_state=self.random_state, misses=self.misses,
            weight_by_distance=self.weight_by_distance, sigma=self.sigma,
            T=self.T, n_jobs=self.n_jobs, compat=self.compat,
            neighbours=self.neighbours, device=self.device,
            feature_names=getattr(owner, "feature_names_in_", None),
            class_names=None if owner.regression_ else owner.classes_,
            **weights, **declared)
        options.update(self._corelearn_options(owner))
        owner._say(f"{X.shape[0]} instances, {X.shape[1]} features "
                   f"({int(nominal.sum())} nominal), "
                   + (f"{y.shape[1]} targets (multi-target RReliefF)"
                      if several else "a numeric target (RReliefF)"
                      if owner.regression_
                      else f"{len(owner.classes_)} classes")
                   + f"; neighbours={self.neighbours!r}, "
                     f"k_nearest={options['k_nearest']}")
        return X, y, nominal, options

    def _corelearn_options(self, owner):
        """The options of CORElearn's estimator (``estimator``; its cost
        matrix ``costs``, checked against ``owner.classes_``) for
        ``_prepare``; a ValueError where they do not go with the data or
        the other parameters."""
        options = {}
        if self.estimator is not None:
            entry = corelearn.check(self.estimator, owner.regression_)
            if entry.options is None and (self.threshold is not None or
                                          self.significance is not None or
                                          self.redundancy):
                raise ValueError(
                    f"CORElearn's {self.estimator} is not one run of the "
                    "engine: it has no significance test or redundancy "
                    "here; leave threshold, significance and redundancy "
                    "out.")
            options.update(entry.options or {})
        if self.costs is not None:
            options["costs"] = corelearn.check_costs(
                self.estimator, self.costs,
                None if owner.regression_ else owner.classes_)
        return options

    def _discrete_rules(self):
        """(discrete_features, the features' threshold, the target's
        threshold) from our names and scikit-rebate's, checked: 0.8.4's
        ``categorical_features``, ``categorical_threshold`` and
        ``multiclass_threshold`` are the parts of the older
        ``discrete_threshold``."""
        def one(ours, theirs):
            if getattr(self, theirs) is None:
                return ours
            if getattr(self, ours) is not None:
                raise ValueError(f"{ours} and {theirs} (scikit-rebate's "
                                 f"name) are the same option; give one of "
                                 "them.")
            return theirs
        features = one("discrete_threshold", "categorical_threshold")
        target = one("discrete_threshold", "multiclass_threshold")
        for name in {features, target}:
            if getattr(self, name) is not None:
                whole_number(getattr(self, name), name, minimum=0,
                             otherwise="or None")
        spec = self.discrete_features
        auto = isinstance(spec, str) and spec == "auto"
        if self.categorical_features is not None:
            if not auto:
                raise ValueError("discrete_features and categorical_features "
                                 "(scikit-rebate's name) are the same "
                                 "option; give one of them.")
            spec, auto = self.categorical_features, False
        if getattr(self, features) is not None and not auto:
            raise ValueError(
                f"discrete_features and {features} both say which features "
                f"are nominal; give one of them (leave discrete_features="
                f"'auto' with {features}).")
        return spec, getattr(self, features), getattr(self, target)

    def _target_columns(self, y, threshold):
        """Several targets (a 2-D y): each column numeric where a single y
        would be (``_is_regression``), else nominal with its labels as codes
        0, 1, ... in ``LabelEncoder``'s order; (the columns as floats, the
        nominal flags)."""
        columns, flags = [], []
        for column in np.asarray(y).T:
            try:        # (numbers in an object array: as a numeric y)
                column = column.astype(float)
            except (TypeError, ValueError):
                pass
            numeric = column.dtype.kind == "f" \
                and self._is_regression(column, threshold)
            flags.append(not numeric)
            columns.append(column.astype(float) if numeric
                           else LabelEncoder().fit_transform(column))
        return np.column_stack(columns).astype(float), np.array(flags)

    def _is_regression(self, y, threshold):
        """A continuous target: ``label_type="continuous"`` (scikit-rebate's
        choice); with a threshold (scikit-rebate's rule), a numeric target
        with more distinct values than it; else when ``type_of_target`` says
        "continuous"."""
        if self.label_type is not None:
            kinds = ("binary", "multiclass", "continuous")
            if self.label_type not in kinds:
                raise ValueError(f"label_type must be one of {kinds} or None "
                                 f"(scikit-rebate's choices); got "
                                 f"{self.label_type!r}.")
            if self.label_type == "binary" and np.unique(y).size != 2:
                raise ValueError(f"label_type='binary', but y has "
                                 f"{np.unique(y).size} distinct values.")
            return self.label_type == "continuous"
        if threshold is None:
            return type_of_target(y) == "continuous"
        y = np.asarray(y)
        return y.dtype.kind in "iuf" and np.unique(y).size > threshold

    def _k_nearest(self, n_samples):
        """k: ``k_nearest``, or scikit-rebate's name for it, ``n_neighbors``.
        A fraction f in (0, 1) of the n training rows gives
        k = max(1, int(f n / 2)), as scikit-rebate reads it (the k hits and
        the k misses together make f n); with ``sample_weight``, n is the
        weights' sum (the samples they stand for)."""
        k, name = self.k_nearest, "k_nearest"
        if self.n_neighbors is not None:
            if not (is_whole(k) and k == 10):
                raise ValueError("k_nearest and n_neighbors (scikit-rebate's "
                                 "name for it) are the same option; give "
                                 "one of them.")
            k, name = self.n_neighbors, "n_neighbors"
        if not is_real(k) or is_whole(k):
            return k                         # the engine checks the rest
        if not 0 < k < 1:
            raise ValueError(f"{name} must be a whole number of neighbours "
                             f"or a fraction of the training rows in (0, 1) "
                             f"(e.g. 0.1); got {k!r}.")
        return max(1, int(k * n_samples / 2))

    def _fit_non_redundant(self, X, y, nominal, options, rule, covariates):
        """With ``redundancy=True``: the weights, and the features that
        ``select_non_redundant`` keeps among the top ones
        (``redundancy.relief_redundancy``, the same run)."""
        if rule is not None or covariates.size:
            raise ValueError("redundancy=True selects a number of features; "
                             "it does not combine with threshold or "
                             "covariates: leave those out.")
        if self.regression_:
            raise ValueError("redundancy=True needs a class (it compares "
                             "ReliefF's per-visit updates); RReliefF has "
                             "none: use redundancy=False for a numeric "
                             "target.")
        n_select = self._n_selected(self.n_features_to_select,
                                    X.shape[1])
        result = relief_redundancy(X, y, nominal, top=max(TOP, n_select),
                                   **options)
        chosen, redundant_with = result.select(n_select,
                                               self.redundancy_threshold)
        self._chosen = np.zeros(X.shape[1], dtype=bool)
        self._chosen[chosen] = True
        self.redundant_with_ = np.full(X.shape[1], -1)
        self.redundant_with_[result.features] = redundant_with
        self.redundancy_features_ = result.features
        self.redundancy_matrix_ = result.matrix
        return result

    def _test_name(self):
        """The registered test behind ``threshold``: ``significance``, or
        by default the class permutation, or NPDR's permutation test when
        there are covariates."""
        if self.significance is not None:
            return self.significance
        return "permutation" if self.covariates is None \
            else stats.NPDR_DEFAULT

    def _covariate_columns(self, n_features, rule):
        """The covariates' column indices (sorted), checked."""
        if self.covariates is None:
            return np.zeros(0, dtype=np.int64)
        columns = np.asarray(self.covariates).ravel()
        if columns.size == 0 or not np.issubdtype(columns.dtype, np.integer):
            raise ValueError("covariates must be column indices of X (a "
                             f"list of ints); got {self.covariates!r}.")
        if columns.min() < 0 or columns.max() >= n_features:
            raise ValueError(f"covariates has column indices outside "
                             f"0..{n_features - 1}.")
        if np.unique(columns).size != columns.size:
            raise ValueError("covariates names a column twice.")
        if columns.size >= n_features:
            raise ValueError("Every column is a covariate: leave at least "
                             "one feature to select.")
        if rule is None:
            raise ValueError("covariates adjust the significance test behind "
                             "threshold; give one (e.g. "
                             "threshold='fdr:0.05').")
        return np.sort(columns)

    @staticmethod
    def _covariate_options(X, nominal, covariates, names):
        """The test's covariate arguments (values, nominal mask, names)."""
        values = X[:, covariates]
        values = values.toarray() if sp.issparse(values) \
            else np.asarray(values)
        return dict(covariates=values,
                    covariate_nominal=nominal[covariates],
                    covariate_names=[str(names[c]) if names is not None
                                     else f"column {c}"
                                     for c in covariates])

    def _threshold_rule(self):
        """(kind, alpha) from ``threshold``, or None."""
        if self.threshold is None:
            return None
        kind, _, alpha = str(self.threshold).partition(":")
        try:
            alpha = float(alpha)
        except ValueError:
            alpha = -1.0
        if kind not in ("fdr", "p", "fwer") or not 0 < alpha < 1:
            raise ValueError(f"threshold must be 'fdr:ALPHA', 'p:ALPHA' or "
                             f"'fwer:ALPHA' with 0 < ALPHA < 1 (e.g. "
                             f"'fdr:0.05'); got {self.threshold!r}.")
        test = self._test_name()
        entry = lookup(stats.TESTS, test, "significance")
        if self.covariates is not None and not entry.covariates:
            adjusting = [name for name, entry in stats.TESTS.items()
                         if entry.covariates]
            raise ValueError(f"significance={test!r} does not adjust for "
                             f"covariates; use "
                             f"{' or '.join(map(repr, adjusting))}.")
        if kind == "fwer" and not entry.family_wise:
            family_wise = [name for name, test in stats.TESTS.items()
                           if test.family_wise]
            raise ValueError("threshold='fwer:...' is the max-statistic p "
                             "of the class permutation test; use "
                             "significance="
                             f"{' or '.join(map(repr, family_wise))}.")
        return kind, alpha

    def _check_resolution(self, kind, alpha, n_features):
        """Refuse a threshold that the permutation test cannot pass: its
        p-values are multiples of 1 / (n_permutations + 1), so with too few
        permutations no feature could be selected (and the refits would be
        spent for nothing).  STIR's p-values have no such floor."""
        if not stats.TESTS[self._test_name()].permutations:
            return
        reason = stats.unreachable_threshold(kind, alpha,
                                             self.n_permutations, n_features)
        if reason is not None:
            raise ValueError(f"threshold={self.threshold!r} can select no "
                             f"feature. {reason}")

    def _significant(self, X, y, nominal, options, kind, alpha):
        """The mask of the features that pass the threshold; sets
        ``p_values_`` and ``q_values_``."""
        test = stats.TESTS[self._test_name()].run(
            X, y, nominal, n_permutations=self.n_permutations, **options)
        self.p_values_, self.q_values_ = test.p_values, test.q_values
        values = {"fdr": test.q_values, "p": test.p_values,
                  "fwer": test.p_max_t}[kind]
        with np.errstate(invalid="ignore"):
            return values < alpha

    def _check_n_features_to_select(self):
        k = self.n_features_to_select
        if k is None:
            return
        if isinstance(k, numbers.Integral) and not isinstance(k, bool):
            if k < 1:
                raise ValueError("n_features_to_select must be at least 1; "
                                 f"got {k}.")
        elif isinstance(k, numbers.Real) and not isinstance(k, bool):
            if not 0 < k <= 1:
                raise ValueError("A fractional n_features_to_select must be "
                                 f"in (0, 1]; got {k}.")
        else:
            raise ValueError("n_features_to_select must be None (half), a "
                             "whole number of features or a fraction in "
                             f"(0, 1]; got {k!r}.")

    @staticmethod
    def _nominal_mask(spec, n_features, auto):
        """The boolean mask of nominal features from ``discrete_features``
        (``spec``)."""
        if isinstance(spec, str):
            if spec != "auto":
                raise ValueError("discrete_features must be 'auto', a bool, a "
                                 "boolean mask or an array of column indices; "
                                 f"got {spec!r}.")
            return np.asarray(auto, dtype=bool)
        if isinstance(spec, (bool, np.bool_)):
            return np.full(n_features, bool(spec))
        spec = np.asarray(spec)
        if spec.dtype == bool:
            if spec.shape != (n_features,):
                raise ValueError(f"The discrete_features mask has shape "
                                 f"{spec.shape}, but X has {n_features} "
                                 "features; give one flag per feature.")
            return spec.copy()
        if spec.ndim != 1 or (spec.size and not np.issubdtype(
                spec.dtype, np.integer)):
            raise ValueError("discrete_features must be 'auto', a bool, a "
                             "boolean mask or an array of column indices.")
        if spec.size and not (-n_features <= spec.min()
                              and spec.max() < n_features):
            raise ValueError(f"discrete_features has column indices outside "
                             f"0..{n_features - 1}.")
        mask = np.zeros(n_features, dtype=bool)
        mask[spec] = True
        return mask

    @staticmethod
    def _encode_frame(X, nominal):
        """Replace the nominal columns of a DataFrame by value codes (NaN for
        missing) so that the whole frame is numeric."""
        import pandas as pd
        encoded = {}
        for j, (name, dtype) in enumerate(X.dtypes.items()):
            column = X.iloc[:, j]
            if nominal[j]:
                codes = pd.factorize(column,
                                     use_na_sentinel=True)[0].astype(float)
                codes[codes < 0] = np.nan
                encoded[j] = codes
            elif _is_time(dtype):
                encoded[j] = _seconds(column)
            elif _is_text_or_category(dtype):
                try:
                    encoded[j] = np.asarray(column, dtype=float)
                except (TypeError, ValueError):
                    raise ValueError(
                        f"Column {name!r} holds text or categories but is not "
                        "marked as discrete; include it in discrete_features "
                        "(or use discrete_features='auto').") from None
        if not encoded:
            return X
        X = X.copy()
        for j, codes in encoded.items():
            X.isetitem(j, codes)
        return X


class _AroundRelief(_RankingSelector):
    """TuRF, Iter and VLS as scikit-learn selectors, as scikit-rebate has
    them: around a :class:`ReliefFSelector` (``relief_object``; its options
    choose the variant, neighbourhood rule, k, nominal features, device and
    ``n_features_to_select``), they rerun its engine on parts of the data
    (``orangecontrib.relief.wrappers.turf``, ``.iterated``, ``.vls``)."""

    def fit(self, X, y, sample_weight=None):
        """Estimate the weight of every feature; ``X``, ``y`` and
        ``sample_weight`` as :meth:`ReliefFSelector.fit` takes them (the
        weights reach every rerun).  Returns the selector."""
        relief = self._relief()
        self._check()
        relief._check_n_features_to_select()
        check_device(relief.device)
        started = time.perf_counter()
        X, y, nominal, options = relief._prepare(X, y, self, sample_weight)
        del options["feature_names"]        # the runs see parts of X
        progress = (lambda done: self._say(f"{done:.0%}")) \
            if self.verbose else None
        weights = self._weights(X, y, nominal, options, progress)
        self._rank(weights, relief.n_features_to_select)
        self._done(started)
        return self

    def _relief(self):
        """A clone of ``relief_object`` (a default ReliefFSelector when
        None), checked."""
        name = type(self).__name__
        if self.relief_object is None:
            return ReliefFSelector()
        if not isinstance(self.relief_object, ReliefFSelector):
            raise ValueError(
                f"{name}'s relief_object must be a ReliefFSelector (its "
                f"options choose the Relief variant it reruns); got "
                f"{type(self.relief_object).__name__}. For scikit-rebate's "
                f"SURF or MultiSURF use ReliefFSelector(neighbours='surf') "
                f"or ReliefFSelector(neighbours='multisurf').")
        relief = clone(self.relief_object)
        for option in ("threshold", "covariates", "compat"):
            if getattr(relief, option) is not None:
                raise ValueError(
                    f"{name} reruns its ReliefFSelector on parts of the "
                    f"data; its {option}={getattr(relief, option)!r} "
                    f"applies to one run on all features only. Leave "
                    f"{option}=None.")
        return relief

    def _check(self):
        """Check this wrapper's own options (before any work)."""

    def _weights(self, X, y, nominal, options, progress):
        """The weights of the wrapped runs on the encoded data."""
        raise NotImplementedError


class TuRFSelector(_AroundRelief):
    """TuRF (Moore & White 2007) around a Relief variant: score, remove the
    lowest-scoring share of the features, score the rest again.

    Relief's neighbours are found with all features, so many irrelevant ones
    drown the few that matter; removing the worst and re-scoring lets the
    distances see the relevant ones.  Every round removes
    ``round(remove * n_features)`` of the *original* features, never going
    below ``n_keep``; a feature's weight is its estimate in the last round it
    took part in (``orangecontrib.relief.wrappers.turf.turf``).

    Parameters
    ----------
    relief_object : ReliefFSelector or None, default=None
        The Relief variant rerun each round, and the number of features
        ``transform`` keeps (its ``n_features_to_select``); a default
        ReliefFSelector when None.
    remove : float, default=0.1
        Share of the original features removed per round.
    rounds : int or None, default=None
        Rounds at most; ``round(1 / remove)`` when None.
    n_keep : int, default=1
        Never fewer features than this.
    num_scores_to_return : int or None, default=None
        scikit-rebate's name for ``n_keep`` (give one of them).
    pct : None
        scikit-rebate's schedule (keep ``pct`` of the features each round)
        is not offered: a ValueError says which ``remove`` to use.
    verbose : bool, default=False
        Print the progress of the rounds.

    Attributes
    ----------
    feature_importances_, ranking_, top_features_, n_features_to_select_,
    nominal_, regression_, classes_, n_features_in_, feature_names_in_
        As :class:`ReliefFSelector`'s.
    removed_ : list of int
        The removed features, worst first.

    Notes
    -----
    scikit-rebate's TuRF gives the removed features 0; here they keep the
    estimate of the last round they took part in, so they rank below the
    survivors by when they were removed and then by weight.
    """

    def __init__(self, relief_object=None, remove=0.1, rounds=None,
                 n_keep=1, num_scores_to_return=None, pct=None,
                 verbose=False):
        self.relief_object = relief_object
        self.remove = remove
        self.rounds = rounds
        self.n_keep = n_keep
        self.num_scores_to_return = num_scores_to_return
        self.pct = pct
        self.verbose = verbose

    def _check(self):
        if self.pct is not None:
            raise ValueError(
                f"pct={self.pct!r} is scikit-rebate's TuRF schedule (keep "
                f"that share of the remaining features each round); "
                f"TuRFSelector removes a share of the original features per "
                f"round (Moore & White 2007): give remove= instead, e.g. "
                f"remove=0.5 with rounds=1 for one round that drops half.")
        self._n_keep()

    def _n_keep(self):
        if self.num_scores_to_return is None:
            return self.n_keep
        if self.n_keep != 1:
            raise ValueError("n_keep and num_scores_to_return (scikit-rebate"
                             "'s name for it) are the same option; give one "
                             "of them.")
        return self.num_scores_to_return

    def _weights(self, X, y, nominal, options, progress):
        weights, self.removed_ = turf(
            X, y, nominal, remove=self.remove, rounds=self.rounds,
            n_keep=self._n_keep(), progress=progress, **options)
        return weights


class IterSelector(_AroundRelief):
    """Iter (scikit-rebate's) around a Relief variant: rerun it with the
    previous run's weights in its distance until the weights settle.

    Run i >= 1 weighs the distance by v_i, the previous run's weights with
    negatives set to 0 and divided by the largest, moved only ``beta`` of the
    way from v_{i-1} from run 2 on; it stops when no weight moved by
    ``convergence_threshold`` or more, or after ``max_iter`` runs
    (``orangecontrib.relief.wrappers.iterated.iter_relief``, whose docstring says
    where it differs from scikit-rebate 0.8).

    Parameters
    ----------
    relief_object : ReliefFSelector or None, default=None
        The Relief variant rerun (not I-RELIEF, which iterates already), and
        the number of features ``transform`` keeps.
    max_iter : int, default=10
        Runs at most, the first included.
    convergence_threshold : float, default=1e-4
        Stop when every weight moved by less than this.
    beta : float, default=0.1
        The share of the way the distance weights move per run.
    verbose : bool, default=False
        Print the progress of the runs.

    Attributes
    ----------
    feature_importances_, ranking_, top_features_, n_features_to_select_,
    nominal_, regression_, classes_, n_features_in_, feature_names_in_
        As :class:`ReliefFSelector`'s: the last run's weights.
    n_iter_ : int
        The number of runs.
    distance_weights_ : ndarray of shape (n_features,) or None
        The distance weights of the last run (None after one run).
    """

    def __init__(self, relief_object=None, max_iter=10,
                 convergence_threshold=1e-4, beta=0.1, verbose=False):
        self.relief_object = relief_object
        self.max_iter = max_iter
        self.convergence_threshold = convergence_threshold
        self.beta = beta
        self.verbose = verbose

    def _weights(self, X, y, nominal, options, progress):
        weights, runs = iter_relief(
            X, y, nominal, max_iter=self.max_iter,
            convergence_threshold=self.convergence_threshold, beta=self.beta,
            progress=progress, **options)
        self.n_iter_ = len(runs)
        self.distance_weights_ = runs[-1][0]
        return weights


class VLSSelector(_AroundRelief):
    """VLS (scikit-rebate's; Urbanowicz et al. 2018) around a Relief variant:
    score random subsets of the features, each alone, and keep each
    feature's largest score.

    On very wide data the distances are dominated by the many irrelevant
    features; a subset of ``size_feature_subset`` features sees the few
    that matter more clearly.  The subsets are drawn as scikit-rebate draws
    them (``orangecontrib.relief.wrappers.vls.feature_subsets``).

    Parameters
    ----------
    relief_object : ReliefFSelector or None, default=None
        The Relief variant run on each subset, and the number of features
        ``transform`` keeps.
    num_feature_subset : int, default=40
        The number of subsets (more when that many do not cover the
        features: a ValueError says how many).
    size_feature_subset : int, default=5
        Features per subset (cut to the number of features).
    random_state : int or None, default=None
        Seed of the subsets (Python's ``random``, as scikit-rebate).
    verbose : bool, default=False
        Print the progress of the subsets.

    Attributes
    ----------
    feature_importances_, ranking_, top_features_, n_features_to_select_,
    nominal_, regression_, classes_, n_features_in_, feature_names_in_
        As :class:`ReliefFSelector`'s: each feature's largest weight.
    subsets_ : list of lists of int
        The subsets, in the order they were scored.
    """

    def __init__(self, relief_object=None, num_feature_subset=40,
                 size_feature_subset=5, random_state=None, verbose=False):
        self.relief_object = relief_object
        self.num_feature_subset = num_feature_subset
        self.size_feature_subset = size_feature_subset
        self.random_state = random_state
        self.verbose = verbose

    def _weights(self, X, y, nominal, options, progress):
        seed = options.pop("random_state")
        visits_matter = options["n_iterations"] is not None or \
            variant_named(options["variant"]).feedback
        if seed != 0 and visits_matter:
            raise ValueError(
                "VLSSelector's random_state seeds the subsets; vls runs "
                "Relief on them in the visiting order of seed 0. Leave "
                "relief_object's random_state at 0 (it matters only with "
                "n_iterations or the feedback variants).")
        weights, self.subsets_ = vls(
            X, y, nominal, num_feature_subset=self.num_feature_subset,
            size_feature_subset=self.size_feature_subset,
            random_state=self.random_state, progress=progress, **options)
        return weights
