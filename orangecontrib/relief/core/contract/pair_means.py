"""Each feature's mean diff over all pairs of instances: SURF's radius.

SURF's radius is the mean distance over all n(n - 1)/2 pairs of instances,
and a distance is a weighted sum of diffs, so the radius with distance
weights w is sum_A w_A pair_means[A]: one dot product per visit for
dReliefF and pdReliefF, whose weights change at every visit.  Each mean is
exact sums over sorted values and value counts (O(n log n) per feature, no
pair enumerated), with RELIEF-D where values are missing
(``doc/semantics.md``).
"""
import numpy as np

from .prepare import class_law, expected_abs_to


def _sum_abs_pairs(values):
    """sum over pairs i < j of |v_i - v_j|: sorted, v_(k) counts (2k - N +
    1) times."""
    v = np.sort(values)
    k = np.arange(v.shape[0])
    return float(np.dot(v, 2 * k - v.shape[0] + 1))


def _sum_abs_to(sample, values):
    """sum over v in ``values`` and u in ``sample`` of |u - v|."""
    s = np.sort(sample)
    prefix = np.concatenate([[0.0], np.cumsum(s)])
    below = np.searchsorted(s, values)
    total = prefix[-1]
    return float(np.sum(values * below - prefix[below]
                        + (total - prefix[below])
                        - values * (s.shape[0] - below)))


def _class_pairs(missing_counts):
    """(c1, c2, pairs) of the pairs of instances with missing values, by
    their classes (c1 <= c2)."""
    out = []
    for c1, m1 in enumerate(missing_counts):
        for c2 in range(c1, len(missing_counts)):
            m2 = missing_counts[c2]
            pairs = m1 * (m1 - 1) / 2 if c1 == c2 else m1 * m2
            if pairs:
                out.append((c1, c2, pairs))
    return out


def _numeric_sum(x, group, n_classes, prep, f):
    """sum over pairs of diff(f) of a numeric column (NaN missing)."""
    known = ~np.isnan(x)
    total = _sum_abs_pairs(x[known])
    if known.all():
        return total
    missing = np.bincount(group[~known], minlength=n_classes)
    for c in np.flatnonzero(missing):
        law = class_law(prep, f, c)[0]
        # each missing instance of class c against each known value v:
        # E|X_c - v|
        total += missing[c] * _sum_abs_to(law, x[known]) / law.shape[0]
    for c1, c2, pairs in _class_pairs(missing):
        total += pairs * prep.missing.num_both[f, c1, c2]
    return total


def _nominal_sum(codes, group, n_classes, tables, g):
    """sum over pairs of diff(g) of a nominal column (-1 missing)."""
    known = codes >= 0
    counts = np.bincount(codes[known]).astype(float)
    n_known = counts.sum()
    total = (n_known * n_known - np.dot(counts, counts)) / 2
    if known.all():
        return total
    missing = np.bincount(group[~known], minlength=n_classes)
    for c in np.flatnonzero(missing):
        probabilities = tables.nom_prob[g, c, :counts.shape[0]]
        total += missing[c] * float(np.dot(counts, 1.0 - probabilities))
    for c1, c2, pairs in _class_pairs(missing):
        total += pairs * tables.nom_both[g, c1, c2]
    return total


def _sparse_sums(prep):
    """The sums over pairs of every column of sparse data (zeros are
    values)."""
    rows = prep.sp
    n = prep.group.shape[0]
    out = np.zeros(rows.nominal.shape[0])
    for f in range(out.shape[0]):
        values = rows.col_values[rows.col_ptr[f]:rows.col_ptr[f + 1]]
        values = values[values != 0]
        zeros = n - values.shape[0]
        if rows.nominal[f]:
            counts = np.bincount(values.astype(np.int64)).astype(float)
            counts[0] = zeros
            out[f] = (n * n - np.dot(counts, counts)) / 2
        else:
            out[f] = _sum_abs_pairs(values) + zeros * np.abs(values).sum()
    return out


def _weighted_sum_abs_pairs(values, weights):
    """sum over pairs i < j of w_i w_j |v_i - v_j|."""
    order = np.argsort(values, kind="stable")
    v, w = values[order], weights[order]
    weight_below = np.cumsum(w) - w
    sum_below = np.cumsum(v * w) - v * w
    return float(np.dot(w, v * weight_below - sum_below))


def _missing_pairs(missing, w, group, both):
    """The weighted sum over pairs of two instances with a missing value
    (``missing``: their mask; ``both``: the class x class table of diffs
    of two missing values), their own copies' pairs included: pairs
    i < j count w_i w_j, an instance's pairs with its copies
    w_i max(w_i - 1, 0) / 2."""
    weights, classes = w[missing], group[missing]
    per_class = np.bincount(classes, weights=weights,
                            minlength=both.shape[0])
    own = both[classes, classes]
    copies = np.maximum(weights - 1.0, 0.0)
    return (float(per_class @ both @ per_class)
            - float(np.dot(weights * weights, own))
            + float(np.dot(weights * copies, own))) / 2


def _with_missing(total, known, group, n_classes, w, against, both):
    """``total`` plus the weighted sum over the pairs of a column with a
    missing value (``known``: the mask of the known ones): each class c's
    missing instances' weight times ``against(c)``, the weighted sum of
    their diffs to the known instances; then the pairs of two missing
    values (``both``: ``_missing_pairs``)."""
    missing = np.bincount(group[~known], weights=w[~known],
                          minlength=n_classes)
    for c in np.flatnonzero(missing):
        total += missing[c] * against(c)
    return total + _missing_pairs(~known, w, group, both)


def _weighted_numeric_sum(x, group, n_classes, prep, f):
    """``_numeric_sum`` of weighted instances (``prep.instance_weights``)."""
    w = prep.instance_weights
    known = ~np.isnan(x)
    total = _weighted_sum_abs_pairs(x[known], w[known])
    if known.all():
        return total

    def against(c):     # (E|X_c - v| of each known v, by its weight)
        law, prefix, cumulative = class_law(prep, f, c)
        return float(np.dot(w[known], expected_abs_to(law, prefix, x[known],
                                                      cumulative)))
    return _with_missing(total, known, group, n_classes, w, against,
                         prep.missing.num_both[f])


def _weighted_nominal_sum(codes, group, n_classes, prep, g):
    """``_nominal_sum`` of weighted instances."""
    w = prep.instance_weights
    known = codes >= 0
    counts = np.bincount(codes[known], weights=w[known])
    n_known = counts.sum()
    total = (n_known * n_known - np.dot(counts, counts)) / 2
    if known.all():
        return total
    prob = prep.missing.nom_prob[g]

    def against(c):     # (1 - P(v | c) of each known value's weight)
        return float(np.dot(counts, 1.0 - prob[c, :counts.shape[0]]))
    return _with_missing(total, known, group, n_classes, w, against,
                         prep.missing.nom_both[g])


def _weighted_pair_means(prep):
    """``pair_means`` of weighted instances (dense data): an instance of
    weight w counts as w copies, so each pair i < j counts w_i w_j and the
    pairs of an instance's copies w_i max(w_i - 1, 0) / 2 (their diff 0,
    or RELIEF-D's of two missing values); divided by the total of these
    counts (n(n - 1)/2 for weights 1)."""
    w = prep.instance_weights
    num, nom = prep.num, prep.nom
    sums = np.array(
        [_weighted_numeric_sum(num[:, f], prep.group, prep.n_classes, prep,
                               f) for f in range(num.shape[1])]
        + [_weighted_nominal_sum(nom[:, g].astype(np.int64), prep.group,
                                 prep.n_classes, prep, g)
           for g in range(nom.shape[1])])
    total = w.sum()
    pairs = (total * total - np.dot(w, w)
             + np.dot(w, np.maximum(w - 1.0, 0.0))) / 2
    return sums / pairs if pairs > 0 else sums


def pair_means(prep):
    """Each kernel column's mean diff over all n(n - 1)/2 pairs of
    instances (``prepare.Prepared``; with instance weights, over the pairs
    of their copies: ``_weighted_pair_means``)."""
    if prep.instance_weights is not None:
        return _weighted_pair_means(prep)
    n = prep.group.shape[0]
    if prep.sparse:
        sums = _sparse_sums(prep)
    else:
        num, nom = prep.num, prep.nom
        sums = np.array(
            [_numeric_sum(num[:, f], prep.group, prep.n_classes, prep, f)
             for f in range(num.shape[1])]
            + [_nominal_sum(nom[:, g].astype(np.int64), prep.group,
                            prep.n_classes, prep.missing, g)
               for g in range(nom.shape[1])])
    return sums / (n * (n - 1) / 2) if n > 1 else sums
