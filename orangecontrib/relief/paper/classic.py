"""Classic filter scores of the seed paper's state of the art, as Orange scorers.

Each score is a pure function of a contingency table ``counts`` (classes in
rows, feature values in columns, as :class:`Orange.statistics.contingency.Discrete`
gives it) plus a :class:`Orange.preprocess.score.Scorer` that Orange's Rank widget
can use. Probabilities are relative frequencies over the rows where both the
feature and the class are known (rows with a missing feature value are left out).
Continuous features are discretized first, like Orange's ``InfoGain``.

Every scorer returns *higher = more important*. The two distances, which are
smaller for better features, are therefore turned around:
``MantarasDistance`` returns ``1 - D_M`` and ``EntropyDistance`` returns ``-D_H``.
"""
import numpy as np
from Orange.data import DiscreteVariable
from Orange.preprocess.preprocess import Discretize
from Orange.preprocess.score import Scorer
from Orange.statistics import contingency

__all__ = ["mantaras_distance", "entropy_distance", "distribution_difference",
           "cross_category_importance", "myopic_relieff",
           "MantarasDistance", "EntropyDistance", "DistributionDifference", "CCF",
           "MyopicReliefF"]


def _joint(counts):
    """Joint probabilities P(c, x) from a classes x values count table."""
    counts = np.asarray(counts, dtype=float)
    if counts.ndim != 2:
        raise ValueError("counts must be a 2-D contingency table "
                         "(classes in rows, feature values in columns).")
    if np.any(counts < 0) or not np.all(np.isfinite(counts)):
        raise ValueError("counts must be finite and non-negative.")
    total = counts.sum()
    if total == 0:
        raise ValueError("The contingency table is empty: the feature has no known "
                         "value in rows with a known class.")
    return counts / total


def _entropy(p):
    p = p[p > 0]
    return float(-np.sum(p * np.log2(p)))


def mantaras_distance(counts):
    """Mántaras distance between class and feature (seed eq. mantaras).

    ``D_M(C, X) = (H(X|C) + H(C|X)) / H(C, X) = 2 - (H(X) + H(C)) / H(C, X)``,
    in [0, 1]; 0 when the feature and the class determine each other. Entropies
    in bits. When ``H(C, X) = 0`` (feature and class both constant) the distance
    is 1, so the feature scores 0.

    Parameters
    ----------
    counts : array of shape (n_classes, n_values)

    Returns
    -------
    float
    """
    p = _joint(counts)
    h_joint = _entropy(p.ravel())
    if h_joint == 0:
        return 1.0
    return 2.0 - (_entropy(p.sum(axis=0)) + _entropy(p.sum(axis=1))) / h_joint


def entropy_distance(counts):
    """Entropy distance (MacKay; seed eq. entropy_distance).

    ``D_H(C, X) = H(C, X) - MI(C, X) = H(C|X) + H(X|C)``, in bits, >= 0.
    """
    p = _joint(counts)
    h_class, h_feature = _entropy(p.sum(axis=1)), _entropy(p.sum(axis=0))
    h_joint = _entropy(p.ravel())
    return 2 * h_joint - h_class - h_feature  # H(C,X) - (H(C) + H(X) - H(C,X))


def distribution_difference(counts):
    """Diff (seed eq. diff_dist): ``sum_{c, x} |P(c, x) - P(x) P(c)|``, >= 0.

    The plain sum is returned, without rescaling. Note that the seed's upper bound
    ``1 - sum_x P(x)^2`` is half the truth: a feature equal to the class reaches
    ``2 (1 - sum_x P(x)^2)``.
    """
    p = _joint(counts)
    return float(np.abs(p - np.outer(p.sum(axis=1), p.sum(axis=0))).sum())


def cross_category_importance(counts):
    """Cross-category feature importance, CCF (Creecy et al. 1992; seed eq. ccf).

    ``w(X) = sum_c P(c | x)^2`` with ``x`` the *positive* value of the feature.

    * Binary feature: the positive value is the second one (column 1: ``"1"``,
      ``"yes"``, ``"True"`` in Orange's value order), exactly eq. ccf.
    * Feature with ``v != 2`` values: CCF is defined for binary features, so the
      feature is binarized one-vs-rest; each indicator ``X = x`` has ``x`` as its
      positive value, and the weight is the plain mean of the ``v`` indicator
      weights, ``(1/v) sum_x sum_c P(c | x)^2``, over the values that occur.

    A binary feature whose positive value never occurs gets NaN.
    """
    p = _joint(counts)
    p_value = p.sum(axis=0)
    if p.shape[1] == 2:
        if p_value[1] == 0:
            return float("nan")
        return float(np.sum((p[:, 1] / p_value[1]) ** 2))
    seen = p_value > 0
    conditional = p[:, seen] / p_value[seen]
    return float(np.mean(np.sum(conditional ** 2, axis=0)))


def myopic_relieff(counts):
    """Myopic ReliefF weight in closed form (seed eqs. myopic_relief, modif_gini).

    With all instances as neighbours, ReliefF estimates
    ``W'[A] = P(diff value | diff class) - P(diff value | same class)``, which by
    Bayes' rule is (Robnik-Šikonja & Kononenko 2003, Machine Learning 53, eq. 12)::

        W'[A] = P_eqval * GG'(A) / (P_samecl * (1 - P_samecl))

        P_eqval  = sum_x P(x)^2
        P_samecl = sum_c P(c)^2
        GG'(A)   = sum_x (P(x)^2 / sum_x P(x)^2) * sum_c P(c | x)^2 - sum_c P(c)^2

    The seed's eq. myopic_relief has two typos, corrected here: its denominator
    reads ``P_samecl 1 - P_samecl`` (it is the product ``P_samecl (1 - P_samecl)``),
    and its definition of ``P_eqval`` sums ``P(c)^2`` over classes (it is
    ``sum_x P(x)^2``, over the feature's values). With a single observed class
    the denominator is 0 and the weight is defined as 0.
    """
    p = _joint(counts)
    p_class, p_value = p.sum(axis=1), p.sum(axis=0)
    p_samecl = float(np.sum(p_class ** 2))
    if p_samecl >= 1.0:
        return 0.0
    p_eqval = float(np.sum(p_value ** 2))
    seen = p_value > 0
    # P(x)^2 * sum_c P(c|x)^2 = sum_c P(c, x)^2
    p_samecl_given_eqval = float(np.sum(p[:, seen] ** 2)) / p_eqval
    gini_prime = p_samecl_given_eqval - p_samecl
    return p_eqval * gini_prime / (p_samecl * (1.0 - p_samecl))


class _ContingencyScorer(Scorer):
    """Scorer computed from each feature's class x value contingency table."""
    feature_type = DiscreteVariable
    class_type = DiscreteVariable
    supports_sparse_data = False
    preprocessors = Scorer.preprocessors + [Discretize(remove_const=False)]
    name = friendly_name = None

    @staticmethod
    def from_counts(counts):
        raise NotImplementedError

    def score_data(self, data, feature=None):
        """1-D array with one score per attribute of ``data``, or a float when
        ``feature`` is given (``data`` then holds that single attribute)."""
        scores = []
        for var in data.domain.attributes:
            counts = np.asarray(contingency.Discrete(data, var), dtype=float)
            scores.append(self.from_counts(counts) if counts.sum() > 0 else np.nan)
        scores = np.array(scores, dtype=float)
        return float(scores[0]) if feature is not None else scores


class MantarasDistance(_ContingencyScorer):
    """``1 - D_M(C, X)``, one minus the Mántaras distance (seed eq. mantaras).

    Equals ``MI(C, X) / H(C, X)``: 1 when feature and class determine each
    other, 0 when they are independent. See :func:`mantaras_distance`.
    """
    name = friendly_name = "Mántaras distance (1 − D)"
    @staticmethod
    def from_counts(counts):
        return 1.0 - mantaras_distance(counts)


class EntropyDistance(_ContingencyScorer):
    """``-D_H(C, X)``, minus the entropy distance (seed eq. entropy_distance).

    0 for a feature that equals the class, negative otherwise (bits). See
    :func:`entropy_distance`.
    """
    name = friendly_name = "Entropy distance (−D)"
    @staticmethod
    def from_counts(counts):
        return -entropy_distance(counts)


class DistributionDifference(_ContingencyScorer):
    """Diff, the L1 distance between joint and product laws (seed eq. diff_dist).

    See :func:`distribution_difference`.
    """
    name = friendly_name = "Distribution difference"
    from_counts = staticmethod(distribution_difference)


class CCF(_ContingencyScorer):
    """Cross-category feature importance (seed eq. ccf).

    See :func:`cross_category_importance` for the positive value of binary
    features and the one-vs-rest mean used for features with other numbers of
    values.
    """
    name = friendly_name = "Cross-category importance"
    from_counts = staticmethod(cross_category_importance)


class MyopicReliefF(_ContingencyScorer):
    """Myopic ReliefF, ReliefF's weight with all instances as neighbours, in
    closed form (seed eqs. myopic_relief and modif_gini, typos corrected).

    See :func:`myopic_relieff`.
    """
    name = friendly_name = "Myopic ReliefF"
    from_counts = staticmethod(myopic_relieff)
