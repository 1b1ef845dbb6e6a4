"""How the compiled backend computes a run: the data layouts its kernels
read and the speed mechanisms they use (``speedups.Speedups``), chosen from
the data's shape when the backend starts (``compiled.CompiledBackend``; the
shared plan, ``base.start``, does not read this module).

Nothing here changes a weight: ``Blocks`` (ReliefF) and ``Screening``
(dReliefF / pdReliefF) only decide which screens narrow the neighbours down
(``doc/architecture.md``).
"""
import numpy as np

from ...contract import estimates
from .feedback_loop import Carry, Feedback, Screening
from ...contract.nominal import pack_planes
from ...contract.prepare import NO_EXPECTATIONS, looked_up
from .screens import BY_FEATURE_MAX, BY_FEATURE_TILE
from ...contract.sparse import RowSums, feature_parts, start_row_sums
from ...variants import of_code
from .relieff_loop import Blocks

# Float32 screening distances up to this many features; the screen's error
# bound, and so its candidate list, grows with their number.
SCREEN_MAX_FEATURES = 20_000
# The feedback variants screen with a uint16 copy (half the bytes of float32)
# when the float32 copy would be at least this big: measured per visit on 2
# cores, 2,000 x 5,000 went from 3.5 to 2.6 ms, 10,000 x 500 from 1.15 to
# 1.06 ms, while 5,000 x 200 (4 MB, in cache) was slower, 0.18 to 0.22 ms.
QUANTISED_MIN_BYTES = 16_000_000
# The feedback variants split one distance row over threads, which costs a
# barrier per visited instance: worth it for rows of this many terms (on an
# idle 2-core machine, dReliefF on 5,000 x 200 took 2.46 s serial and 1.14 s
# split; on a busy machine a barrier can wait for a descheduled thread).
PARALLEL_ROW_TERMS = 250_000
# On sparse data the feedback variants keep running per-row sums in this many
# parts of the features, updated in parallel (a fixed number, so the result
# does not depend on the number of threads).
SPARSE_PARTS = 2
# ...and pdReliefF (``Variant.waiting_changes``) lets a feature's change
# wait while it would move a row's sum by at most a fraction of the mean
# distance weight per unit of diff,
# starting from this one (it adapts as the run goes); the neighbours are then
# screened with the resulting bound, so they are exact either way.  On the
# benchmark's 5,000 x 20,000 this took pdReliefF from 5.3-6.4 s to 2.7-3.0 s
# but made dReliefF slower (3.7 -> 4.5-5.6 s): its weights are the running
# estimate itself, and the many near-zero ones change by as much as they are
# from step to step, so little can wait without widening the screen a lot.
SPARSE_LAZY_RTOL = 1e-2

# ReliefF's blocks share each pass over the data among this many visits: the
# float32 copy is read from cache, four at a time; the radius rules' float64
# data (twice the bytes, 40 MB at 10,000 x 500) and their update's second
# pass are read less often (on 2 cores, their distance pass took 0.84 ms a
# visit in blocks of 4, 0.62 in blocks of 8, 0.51 in blocks of 16).
BLOCK_VISITS = 4
RADIUS_BLOCK_VISITS = 16
# ...and the block's updates share one pass over the data when the data has
# at least this many bytes: per visit on one core, MultiSURF's update took
# 0.066 ms one visit at a time and 0.079 in one pass on 5,000 x 200 (8 MB,
# in L3), 0.133 and 0.116 on 6,000 x 300 (14 MB), 0.70 and 0.41 on
# 10,000 x 500 (40 MB); on GAMETES (1.6 MB) 0.027 and 0.035.
BLOCK_UPDATE_MIN_BYTES = 12_000_000

_NO_PLANES = np.zeros((0, 0), np.uint64)


def expectations(prep, speedups):
    """RELIEF-D's E|X - v| looked up for the loops over data with missing
    values (``prepare.looked_up``: where it fits), unless
    ``speedups.expectations`` is off."""
    return looked_up(prep) if speedups.expectations else NO_EXPECTATIONS


def _can_screen(prep):
    """Screening applies to dense data without missing values and with not
    too many features (the error bound grows with their number)."""
    return not (prep.sparse or prep.has_missing
                or prep.n_used > SCREEN_MAX_FEATURES)


def _planes(prep):
    """The nominal bit-planes ``(planes, n_bits)`` of dense data without
    missing values (``nominal.pack_planes``)."""
    if prep.sparse or prep.has_missing:
        return _NO_PLANES, 1
    return pack_planes(prep.nom)


def blocks(prep, speedups, uses_k=True):
    """ReliefF's ``Blocks``: a float32 copy of the numeric data (stored
    feature by feature for at most BY_FEATURE_MAX numeric features and no
    nominal ones), or the float64 data where a float32 screen does not apply
    (too many features, or a radius rule: blocks of RADIUS_BLOCK_VISITS,
    their updates together from BLOCK_UPDATE_MIN_BYTES), and the nominal
    bit-planes; no blocks at all on sparse data or with missing values
    (``relieff_loop.relief_rows``)."""
    if prep.sparse or prep.has_missing or not speedups.blocks:
        return Blocks(np.zeros((0, 0), np.float32), np.zeros(0), _NO_PLANES,
                      1, False, speedups.min_form, 1, BLOCK_VISITS, False)
    # a radius rule's thresholds come from the whole row: a float32 screen's
    # bound would leave many visits open (neighbours.UNSETTLED), the float64
    # min form's (~1e-13) almost none
    radius = not uses_k
    by_feature = (speedups.by_feature and prep.nom.shape[1] == 0
                  and 0 < prep.num.shape[1] <= BY_FEATURE_MAX and not radius)
    dtype = np.float32 if speedups.float32_copy and _can_screen(prep) \
        and not radius else np.float64
    planes, n_bits = _planes(prep)
    if by_feature:
        copy = np.ascontiguousarray(prep.num.T, dtype=dtype)
        return Blocks(copy, np.zeros(0), planes, n_bits, True, False,
                      BY_FEATURE_TILE, BLOCK_VISITS, False)
    copy = prep.num.astype(dtype) if dtype == np.float32 else prep.num
    together = radius and speedups.block_update and \
        prep.num.nbytes + prep.nom.nbytes >= BLOCK_UPDATE_MIN_BYTES
    return Blocks(copy, copy.sum(axis=1, dtype=np.float64), planes, n_bits,
                  False, speedups.min_form or radius, 1,
                  RADIUS_BLOCK_VISITS if radius else BLOCK_VISITS, together)


def _quantised_copy(prep):
    """The numeric data rounded to uint16 steps of 1/65535: the feedback
    variants' screening copy when the float32 one would not fit in cache
    (``screens.screen_bound`` accounts for the rounding).  Converted in
    slices, so no full-size temporary."""
    out = np.empty(prep.num.shape, np.uint16)
    step = max(1, 1_000_000 // max(1, prep.num.shape[1]))
    for start in range(0, prep.num.shape[0], step):
        out[start:start + step] = np.rint(prep.num[start:start + step]
                                          * 65535)
    return out


def screening(prep, speedups, uses_k=True):
    """dReliefF / pdReliefF's ``Screening`` of dense data: a float32 copy
    of the numeric data, or a uint16 one when the float32 copy would be at
    least QUANTISED_MIN_BYTES (the variants read the whole copy at every
    visit: on big data, halve it again); an empty copy where no screen
    applies."""
    order = np.arange(prep.num.shape[1])
    if not (_can_screen(prep) and speedups.weighted_screen
            and uses_k):
        return Screening(np.zeros((0, 0), np.float32), 0.0, order)
    quantised = (speedups.uint16_copy and prep.num.size > 0
                 and prep.num.size * 4 >= QUANTISED_MIN_BYTES)
    copy = _quantised_copy(prep) if quantised \
        else prep.num.astype(np.float32)
    return Screening(copy, 1.0 / 65535 if quantised else 0.0, order)


def feedback(prep, variant, T, regression, speedups, n_threads,
             uses_k=True, fixed=estimates.NO_FIXED):
    """The settings, the screening copy, the running row sums and the
    starting ``Carry`` of a dReliefF / pdReliefF run (a radius rule's
    thresholds come from the whole row: no screen, nothing waits), or of
    one with fixed distance weights ``fixed`` (kernel columns, dense
    data)."""
    n = prep.group.shape[0]
    parallel = speedups.parallel_rows and \
        n * max(prep.n_used, 1) >= PARALLEL_ROW_TERMS
    run = Feedback(variant, float(T or 0.0), bool(regression),
                   n_threads if parallel else 1, fixed)
    lazy = SPARSE_LAZY_RTOL if (prep.sparse and speedups.waiting_changes
                                and of_code(variant).waiting_changes
                                and uses_k) else 0.0
    if prep.sparse:
        tracking = start_row_sums(prep.sp, n,
                                  feature_parts(prep.sp.col_ptr,
                                                SPARSE_PARTS))
    else:
        tracking = RowSums(np.zeros((0, 3, 0)), np.zeros((3, 0)), np.zeros(0),
                           np.zeros(2, np.int64), np.zeros(0), 0.0, 0.0)
    return run, screening(prep, speedups, uses_k), tracking, \
        Carry(0.0, lazy)
