"""A slow, independent reference of Weka 3.9.7's ReliefFAttributeEval.

Written from tests/data/weka/WEKA_SEMANTICS.md (the section numbers below
are that file's), not from Weka's code.  It reproduces Weka's merits to the
last bit on the golden tables (tests/test_weka_reference.py): every
floating-point operation that can change a result is done in Weka's order,
because the neighbours are chosen with strict comparisons of rounded sums.

Plain Python with numpy used only where it does the same IEEE operations
element by element (a vector of per-attribute differences, a vector of
distances to all rows); nothing here is fast and nothing needs to be.
"""
import hashlib
import math

import numpy as np

__all__ = ["weka_relieff", "JavaRandom", "weka_sort", "rank_weights",
           "feedback_weights"]

#: Weka's Utils.SMALL: two doubles closer than this are "equal" (section 2).
SMALL = 1e-6


class JavaRandom:
    """java.util.Random: a 48-bit linear congruential generator (section 6).

    Only what Weka's sampling calls: the constructor with a seed, and
    nextInt() without a bound (32 random bits as a signed int).
    """
    MULTIPLIER = 0x5DEECE66D
    INCREMENT = 0xB
    MASK = (1 << 48) - 1

    def __init__(self, seed):
        # the seed is scrambled with the multiplier; Python's ^ on a
        # negative int behaves as on Java's two's-complement long
        self.state = (seed ^ self.MULTIPLIER) & self.MASK

    def next_bits(self, bits):
        self.state = (self.state * self.MULTIPLIER + self.INCREMENT) \
            & self.MASK
        return self.state >> (48 - bits)

    def next_int(self):
        value = self.next_bits(32)
        # the top 32 of the 48 bits, read as a signed 32-bit int
        return value - (1 << 32) if value >= 1 << 31 else value


def visiting_order(n, sample_size, seed):
    """The rows Weka visits, in order (section 6).

    sample_size < 0 or > n: every row once, in row order; the same when it
    equals n.  Otherwise sample_size draws with replacement: the remainder of
    nextInt() by n (Java's remainder keeps the sign of the dividend), then
    its absolute value.
    """
    if sample_size < 0 or sample_size > n:
        sample_size = n
    if sample_size == n:
        return list(range(n))
    rng = JavaRandom(seed)
    order = []
    for _ in range(sample_size):
        value = rng.next_int()
        # Java: z = value % n takes the sign of value, then z = -z if z < 0;
        # both steps together are |value| mod n
        order.append(abs(value) % n)
    return order


def rank_weights(k, sigma):
    """exp(-(i/sigma)^2) for ranks i = 0 .. k-1 (section 7).

    (i/sigma) is squared by a multiplication and negated before exp.  Weka
    uses Java's Math.exp; Python's math.exp (the C library's exp) gives the
    same doubles for every (i, sigma) used in the golden data, and at most
    one unit in the last place apart elsewhere (see section 7).
    """
    weights = []
    for i in range(k):
        q = i / float(sigma)
        weights.append(math.exp(-(q * q)))
    return weights


def weka_sort(values):
    """The positions of ``values`` in ascending order, as Weka's
    Utils.sort(double[]) orders them (section 7).

    Not a stable sort: a quicksort whose pivot is the median of the first,
    middle and last entries, and whose short ranges (2 or 3 entries) are
    ordered by fixed compare-and-swap steps.  Equal distances can therefore
    come out in an order other than their slot order, and a neighbour's rank
    (so its weight) depends on it.  NaN sorts as the largest double.
    """
    keys = [1.7976931348623157e308 if math.isnan(v) else v for v in values]
    order = list(range(len(keys)))

    def in_order(a, b):
        # put the entries at positions a < b in order if they are not
        if keys[order[a]] > keys[order[b]]:
            order[a], order[b] = order[b], order[a]

    def sort_range(left, right):
        span = right - left
        if span <= 0:
            return
        if span == 1:
            in_order(left, right)
            return
        if span == 2:
            in_order(left, left + 1)
            in_order(left, right)
            in_order(left + 1, right)
            return
        # median of three: order first, middle and last; the middle one
        # is the pivot and is parked next to the last
        middle = (left + right) // 2
        in_order(left, middle)
        in_order(left, right)
        in_order(middle, right)
        order[middle], order[right - 1] = order[right - 1], order[middle]
        pivot = keys[order[right - 1]]
        # partition the entries strictly between left and right - 1
        low, high = left, right - 1
        while True:
            low += 1
            while keys[order[low]] < pivot:
                low += 1
            high -= 1
            while keys[order[high]] > pivot:
                high -= 1
            if low >= high:
                break
            order[low], order[high] = order[high], order[low]
        # the pivot goes to where the low scan stopped
        order[low], order[right - 1] = order[right - 1], order[low]
        sort_range(left, low - 1)
        sort_range(low + 1, right)

    sort_range(0, len(keys) - 1)
    return order


class _Data:
    """The table as Weka sees it: ranges (section 2) and differences
    (section 3)."""

    def __init__(self, X, y, nominal, n_values, regression):
        self.X = np.asarray(X, dtype=float)
        self.y = np.asarray(y, dtype=float)
        self.n, self.a = self.X.shape
        self.nominal = np.asarray(nominal, dtype=bool)
        self.n_values = np.asarray(
            [n_values[f] if self.nominal[f] else 1 for f in range(self.a)],
            dtype=float)
        self.regression = regression
        # Section 2: min and max of every numeric attribute over its known
        # values in all rows (rows with a missing class included).  An
        # attribute with no known value, or whose max - min is below 1e-6,
        # has no range: every normalised value is 0.
        self.low = np.full(self.a, np.nan)
        self.high = np.full(self.a, np.nan)
        for f in range(self.a):
            if self.nominal[f]:
                continue
            known = self.X[~np.isnan(self.X[:, f]), f]
            if len(known):
                self.low[f], self.high[f] = known.min(), known.max()
        self.has_range = np.array(
            [not self.nominal[f] and not math.isnan(self.low[f])
             and not _weka_eq(self.high[f], self.low[f])
             for f in range(self.a)])
        # the class range, for regression's diff of the target
        if regression:
            known = self.y[~np.isnan(self.y)]
            self.y_low, self.y_high = known.min(), known.max()
            self.y_has_range = not _weka_eq(self.y_high, self.y_low)
        # the loss of a nominal attribute with a missing value
        self.missing_nominal = 1.0 - 1.0 / self.n_values
        # neighbour slots already found, see _prepared
        self.slots_memo = {}

    # -- section 3, one value at a time: the definition ------------------

    def norm(self, f, x):
        if not self.has_range[f]:
            return 0.0
        return (x - self.low[f]) / (self.high[f] - self.low[f])

    def diff(self, f, u, v):
        """diff of attribute f between values u and v (NaN = missing)."""
        if self.nominal[f]:
            if math.isnan(u) or math.isnan(v):
                return 1.0 - 1.0 / self.n_values[f]
            return 0.0 if int(u) == int(v) else 1.0
        if math.isnan(u) and math.isnan(v):
            return 1.0
        if math.isnan(u) or math.isnan(v):
            d = self.norm(f, v if math.isnan(u) else u)
            return 1.0 - d if d < 0.5 else d
        return abs(self.norm(f, u) - self.norm(f, v))

    def diff_class(self, u, v):
        """Regression: the same numeric diff on the target."""
        def norm(x):
            if not self.y_has_range:
                return 0.0
            return (x - self.y_low) / (self.y_high - self.y_low)
        if math.isnan(u) and math.isnan(v):
            return 1.0
        if math.isnan(u) or math.isnan(v):
            d = norm(v if math.isnan(u) else u)
            return 1.0 - d if d < 0.5 else d
        return abs(norm(u) - norm(v))

    # -- the same, for many values at once (identical operations) ---------

    def norm_column(self, f, x):
        if not self.has_range[f]:
            return np.zeros_like(x)
        return (x - self.low[f]) / (self.high[f] - self.low[f])

    def diff_column(self, f, u, v):
        """diff(f, u[i], v[i]) for vectors u, v (or a scalar v)."""
        u, v = np.broadcast_arrays(np.asarray(u, float), np.asarray(v, float))
        mu, mv = np.isnan(u), np.isnan(v)
        if self.nominal[f]:
            out = (u != v).astype(float)
            out[mu | mv] = self.missing_nominal[f]
            return out
        with np.errstate(invalid="ignore"):
            out = np.abs(self.norm_column(f, u) - self.norm_column(f, v))
            one = mu ^ mv
            d = self.norm_column(f, np.where(mu, v, u))
            d = np.where(d < 0.5, 1.0 - d, d)
        out[one] = d[one]
        out[mu & mv] = 1.0
        return out

    def diff_rows(self, r, s):
        """diff(f, X[r, f], X[s, f]) for every attribute f (a vector), or for
        a list of rows s (one row of the result per row of s): the same
        operations as ``diff``, one attribute per element."""
        u, v = self.X[r], self.X[s]
        u = np.broadcast_to(u, v.shape)
        mu, mv = np.isnan(u), np.isnan(v)
        span = np.where(self.has_range, self.high - self.low, 1.0)
        with np.errstate(invalid="ignore"):
            nu = np.where(self.has_range, (u - self.low) / span, 0.0)
            nv = np.where(self.has_range, (v - self.low) / span, 0.0)
            out = np.abs(nu - nv)                   # numeric, both known
            d = np.where(mu, nv, nu)                # numeric, one missing
            d = np.where(d < 0.5, 1.0 - d, d)
        out = np.where(mu ^ mv, d, out)
        out = np.where(mu & mv, 1.0, out)
        nominal = np.where(mu | mv, self.missing_nominal,
                           (u != v).astype(float))
        return np.where(self.nominal, nominal, out)

    def distances(self, r, weights=None):
        """Section 4: the distance of every row to row r, the sum of the
        attributes' diffs added one attribute at a time in column order,
        starting from 0.0 (the class is not among the attributes).  With
        ``weights`` (the feedback variants of doc/semantics.md,
        "compat='weka'"), each diff is multiplied by its attribute's weight
        before it is added."""
        total = np.zeros(self.n)
        for f in range(self.a):
            diff = self.diff_column(f, self.X[:, f], self.X[r, f])
            total = total + (diff if weights is None else weights[f] * diff)
        return total

    def inert(self):
        """The attributes whose diff is 0 for every pair of rows, found by
        trying every pair."""
        return np.array([all(not self.diff_column(f, self.X[:, f],
                                                  self.X[r, f]).any()
                             for r in range(self.n))
                         for f in range(self.a)])


_LAST = {}


def _prepared(X, y, nominal, n_values, regression):
    """_Data for these inputs.  The tests score one table with many option
    sets in a row, so the last table's _Data, with its memo of neighbour
    slots per (visited row, k, number of classes), is kept and reused when
    the inputs are the same bytes; this saves time and changes no number."""
    X = np.ascontiguousarray(X, dtype=float)
    y = np.ascontiguousarray(y, dtype=float)
    digest = hashlib.sha256()
    for part in (repr(X.shape).encode(), X.tobytes(), y.tobytes(),
                 np.asarray(nominal, dtype=bool).tobytes(),
                 repr([int(v) if nom else 0
                       for v, nom in zip(n_values, nominal)]).encode(),
                 bytes([bool(regression)])):
        digest.update(part)
    key = digest.hexdigest()
    if _LAST.get("key") != key:
        _LAST.clear()
        _LAST["key"] = key
        _LAST["data"] = _Data(X, y, nominal, n_values, regression)
    return _LAST["data"]


def _weka_eq(a, b):
    """Utils.eq: equal, or closer than SMALL either way."""
    return a == b or (a - b < SMALL and b - a < SMALL)


def nearest(distance, rows, k):
    """Section 5: Weka's k slots for one group of rows (a class, or all rows
    for regression), fed the rows in row order.

    The first k rows fill the slots in turn.  After each change the "worst"
    slot is the first slot (lowest slot number) holding the largest
    distance.  A later row replaces the worst slot only when its distance
    is strictly smaller.  Returns the slots in slot order: [(distance, row)].
    """
    slot_distance = np.empty(k)
    slot_row = []
    worst = 0
    for row in rows:
        d = distance[row]
        if len(slot_row) < k:
            slot_distance[len(slot_row)] = d
            slot_row.append(row)
        elif d < slot_distance[worst]:
            slot_distance[worst] = d
            slot_row[worst] = row
        else:
            continue
        # the first slot with the largest distance (numpy's argmax returns
        # the first of equal maxima; distances are never NaN)
        worst = int(np.argmax(slot_distance[:len(slot_row)]))
    return [(float(slot_distance[j]), row) for j, row in enumerate(slot_row)]


def candidates(distance, rows, k):
    """The rows of ``rows`` (in row order) that can enter the slots: the
    first k, and later ones strictly nearer than the largest of the first k.
    The worst slot's distance never grows once the slots are full, so any
    other row would fail the "strictly smaller" test of ``nearest``; leaving
    them out changes nothing and saves time on the large tables."""
    rows = np.asarray(rows)
    if len(rows) <= k:
        return rows
    head = rows[:k]
    limit = distance[head].max()
    tail = rows[k:]
    return np.concatenate([head, tail[distance[tail] < limit]])


def feedback_weights(merits, t, variant, T, inert, n):
    """doc/semantics.md's distance weights at visit t (1-based) from the
    merits after t - 1 visits: dReliefF max(0, W), pdReliefF
    max(0, (1 - W) * (1 / t^T) + W); a weight <= t 2^-52 + (n + 2) 2^-50
    (the rounding bound of estimates.residue, n instances) or NaN is 0, and
    so is that of an inert attribute; at t = 1, or when every weight is 0,
    all are 1."""
    if t == 1:
        return np.ones(len(merits))
    w = np.array(merits, dtype=float)
    if variant == "pdrelieff":
        scale = 1.0 / t ** T
        w = (1.0 - w) * scale + w
    with np.errstate(invalid="ignore"):
        w = np.where(w > t * 2.0 ** -52 + (n + 2) * 2.0 ** -50, w, 0.0)
    w[inert] = 0.0
    return w if (w > 0).any() else np.ones(len(merits))


def weka_relieff(X, y, nominal, n_values, k=10, sample_size=-1, seed=1,
                 weight_by_distance=False, sigma=2.0, regression=False,
                 n_classes=None, variant=None, T=None):
    """Weka 3.9.7 ReliefFAttributeEval's merits.

    X: n x a floats, NaN = missing; a nominal attribute holds 0-based codes
    in Weka's declared value order.  y: class codes (classification) or
    numbers (regression), NaN = missing.  nominal: one bool per attribute.
    n_values: the declared number of values of each nominal attribute
    (entries for numeric attributes are ignored).  n_classes: the declared
    number of class values (default: the largest code + 1); Weka's
    multi-class factors depend on the declared number, not on the classes
    present.  k, sample_size (-M), seed (-D), weight_by_distance (-W) and
    sigma (-A) are Weka's options.  Returns one merit per attribute.

    variant "drelieff" or "pdrelieff" (with T, default 2 / ln m): the
    feedback variants on Weka's definitions (doc/semantics.md,
    "compat='weka'"): before visit t the distance weights come from the
    merits after t - 1 visits (``feedback_weights``) and multiply each
    attribute's diff in the distance.
    """
    data = _prepared(X, y, nominal, n_values, regression)
    n, a = data.n, data.a
    y = data.y
    if not regression:
        if n_classes is None:
            n_classes = int(np.nanmax(y)) + 1
        # Section 8: the class frequencies, divided by all n rows (rows
        # whose class is missing count in n but in no class)
        counts = np.zeros(n_classes)
        for c in y[~np.isnan(y)]:
            counts[int(c)] += 1
        prior = [counts[c] / n for c in range(n_classes)]
    ranks = rank_weights(k, sigma) if weight_by_distance else None

    # the rows of each class, in row order (a missing class is in none)
    all_rows = list(range(n))
    if not regression:
        class_rows = {c: [i for i in all_rows
                          if not math.isnan(y[i]) and int(y[i]) == c]
                      for c in range(n_classes)}

    order = visiting_order(n, sample_size, seed)
    total = len(order)
    weights = np.zeros(a)                       # classification sums
    n_dc, n_da, n_dcda = 0.0, np.zeros(a), np.zeros(a)   # regression sums
    if variant is not None:
        inert = data.inert()
        if T is None:
            T = 2.0 / math.log(total) if total > 1 else math.inf

    def find_slots(r, distance):
        # Section 5: the neighbours.  Rows in row order, r itself left
        # out by index; in classification rows with a missing class are
        # left out and each class has its own slots; in regression every
        # row (even one with a missing target) shares one group.
        if regression:
            groups = {0: [i for i in all_rows if i != r]}
        else:
            groups = {c: [i for i in class_rows[c] if i != r]
                      for c in range(n_classes)}
        return {c: nearest(distance, candidates(distance, rows, k), k)
                for c, rows in groups.items()}

    def merits(visits):
        # Section 11 after ``visits`` visits
        with np.errstate(divide="ignore", invalid="ignore"):
            if regression:
                return n_dcda / n_dc - (n_da - n_dcda) / (visits - n_dc)
            return weights * (1.0 / visits) if visits else weights * 0.0

    for t, r in enumerate(order, start=1):
        if math.isnan(y[r]):
            continue                            # section 9: counted, no update
        if variant is not None:
            w = feedback_weights(merits(t - 1), t, variant, T, inert,
                                 len(y))
            slots = find_slots(r, data.distances(r, w))
        else:
            memo_key = (r, k, n_classes)
            if memo_key not in data.slots_memo:
                data.slots_memo[memo_key] = find_slots(r, data.distances(r))
            slots = data.slots_memo[memo_key]

        def visit_order(found):
            """Section 7: the neighbours in the order they are used, each
            with its influence factor."""
            m = len(found)
            if not weight_by_distance:
                # slot order; equal influence (applied by the caller)
                return [(row, None) for _, row in found]
            ranked = weka_sort([d for d, _ in found])
            total_weight = 0.0
            for j in range(m):
                total_weight += ranks[j]
            return [(found[ranked[j]][1], ranks[j] / total_weight)
                    for j in range(m)]

        if regression:
            found = slots[0]
            m = len(found)
            used = visit_order(found)
            diffs = data.diff_rows(r, [row for row, _ in used])
            for (row, factor), d_att in zip(used, diffs):
                # Section 10: one neighbour's contributions
                d_class = data.diff_class(y[r], y[row])
                if factor is None:
                    factor = 1.0 / m
                n_dc += d_class * factor
                n_dcda += (d_class * d_att) * factor
                n_da += d_att * factor
            continue

        # Section 8: classification update
        cl = int(y[r])
        hits = slots[cl]
        used = visit_order(hits)
        diffs = data.diff_rows(r, [row for row, _ in used])
        for (row, factor), d_att in zip(used, diffs):
            if factor is None:
                d_att = d_att / len(hits)
            else:
                d_att = d_att * factor
            weights -= d_att
        many = n_classes > 2
        if many:
            rest = 1.0 - prior[cl]
        for c in range(n_classes):
            if c == cl:
                continue
            misses = slots[c]
            used = visit_order(misses)
            diffs = data.diff_rows(r, [row for row, _ in used])
            for (row, factor), d_att in zip(used, diffs):
                if factor is None:
                    d_att = d_att / len(misses)
                else:
                    d_att = d_att * factor
                if many:
                    weights += (prior[c] / rest) * d_att
                else:
                    weights += d_att

    # Section 11: the final merits
    if regression:
        return merits(total)
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = 1.0 / total if total else math.inf
        return weights * scale
