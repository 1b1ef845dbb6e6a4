"""ReliefF's visits: each instance R is visited on its own (seed Fig.
relieff) -- the distances from R to every instance, its neighbours, its
update -- so chunks of visits run on several threads (the kernels release
the GIL), and four visits (sixteen with a radius rule) share each pass over
the data.
"""
from typing import NamedTuple

import numpy as np
from numba import njit

from ...contract.diffs import JIT
from ...contract.distances import distance_row
from ...contract.neighbours import (MODE_REGRESSION, UNSETTLED, Exact, Screen,
                                    new_buffers, select)
from .screens import (MIN_FORM_CHUNK, by_feature_tiles, min_form_bound,
                      screen_bound, tiled_distances)
from ...contract.sparse import distances, overlaps, row_sums, zero_below
from ...contract.pair_sums import add_pair_sums
from ...contract.updates import update, update_block


class Blocks(NamedTuple):
    """What ReliefF's blocks of ``size`` visits (four, or more for the
    radius rules' float64 copy) screen with: ``copy``, a float32
    copy of the numeric data (or the float64 data, or the float32 copy
    stored feature by feature when ``by_feature``), with ``row_sums``, its
    rows' float64 sums (the ``min_form`` needs them), and the nominal
    bit-planes; the feature-major screen walks the other rows in tiles of
    ``tile``; ``update_together``: a radius rule's block adds its visits'
    updates in one pass over the data (``updates.update_block``).  An empty
    ``copy`` means no blocks: each visit computes its float64 row."""
    copy: np.ndarray
    row_sums: np.ndarray
    planes: np.ndarray
    n_bits: int
    by_feature: bool
    min_form: bool
    tile: int
    size: int
    update_together: bool


@njit(**JIT)
def _screen_bound(data, blocks):
    """The error bound (c, gamma) of the blocks' screening distances: in the
    min form, c is per unit of R's row sum and gamma is 0
    (``min_form_bound``); otherwise ``screen_bound``."""
    num = data.num
    if blocks.by_feature or not blocks.min_form:
        return screen_bound(num, np.ones(num.shape[1]), False, 0.0)
    return min_form_bound(num.shape[1], blocks.copy.itemsize == 4,
                          MIN_FORM_CHUNK)


@njit(**JIT)
def _block_distances(rows, blocks, dist, acc):
    """The screening distances of a block of visits ``rows`` into
    ``dist``."""
    if blocks.by_feature:
        by_feature_tiles(rows, blocks.copy, dist, acc)
    else:
        tiled_distances(rows, blocks.copy, blocks.row_sums, blocks.planes,
                        blocks.n_bits, dist, MIN_FORM_CHUNK, blocks.min_form)


@njit(**JIT)
def relief_rows(rows, data, blocks, hood, speedups, upd):
    """ReliefF: upd[b] = the update of visiting rows[b] (distance weights 1;
    ``upd`` need not be zeroed).

    Dense data without missing values: four visited rows (``Blocks.size``:
    sixteen with a radius rule) share each pass over the data (``Blocks``);
    their screening distances narrow the neighbours down, and
    ``neighbours.select`` decides them by float64 distances; on big data a
    radius rule's block also adds its updates in one more shared pass
    (``updates.update_block``).  Otherwise rows are visited one at a time, with float64
    distances.  An update row wider than the weights' (classification,
    dense data) also gets the visit's STIR sums (``pairsums``).
    """
    n = data.group.shape[0]
    a = data.rows.nominal.shape[0] if data.sparse \
        else data.num.shape[1] + data.nom.shape[1]
    ones = np.ones(a)
    row_base = np.empty(n)
    overlap = np.empty(n if data.sparse else 0)
    scratch = np.zeros(a if data.sparse else 0)
    max_base = 0.0
    if data.sparse:
        row_sums(data.rows, ones, False, row_base)
        max_base = row_base.max()
    exact = Exact(data.num, data.nom, ones, False, data.sparse, data.rows,
                  0.0, overlap, 0.0)
    no_screen = Screen(False, 0.0, 0.0, np.zeros(0))
    blocked = not data.has_missing and not data.sparse \
        and blocks.copy.shape[0] > 0
    c_err, gamma = _screen_bound(data, blocks)
    per_row = blocks.min_form and not blocks.by_feature
    block = blocks.size
    dist = np.empty((block, n))
    acc = np.empty((4, blocks.tile if blocks.by_feature else 0),
                   blocks.copy.dtype)
    buffers = new_buffers(n, hood)
    regression = hood.mode == MODE_REGRESSION
    with_sums = not regression and not data.sparse and upd.shape[1] > a
    # a radius rule's blocks of visits may also share the update's pass over
    # the data: each visit leaves its buckets and shares, update_block adds
    # them
    tiled = blocked and blocks.update_together and not regression
    n_buckets = buffers.ends.shape[0]
    codes = np.empty((block if tiled else 0, n), np.int32)
    shares = np.empty((block, n_buckets))
    acc_num = np.empty((block if tiled else 0, n_buckets, data.num.shape[1]))
    acc_nom = np.empty((block if tiled else 0, n_buckets, data.nom.shape[1]),
                       np.int64)
    counts = np.empty(acc_nom.shape, np.int16)
    b, end = 0, rows.shape[0]
    while b < end:
        size = 1
        if blocked and end - b >= 4:
            # (a radius rule's block of 16 ends in blocks of four)
            size = block if end - b >= block else 4
            _block_distances(rows[b:b + size], blocks, dist[:size], acc)
        elif data.sparse:
            r = rows[b]
            overlaps(r, data.rows, ones, False, overlap, 0, a,
                     speedups.prefetch)
            distances(row_base[r], row_base, overlap,
                      zero_below(row_base[r], max_base, 0.0, 0.0), dist[0])
        else:
            distance_row(rows[b], data, ones, False, dist[0], 0, n)
        # (nominal mismatch counts alone are exact)
        screened = size > 1 and data.num.shape[1] > 0
        for i in range(size):
            r = rows[b + i]
            screen = no_screen
            if screened and per_row:
                screen = Screen(True, c_err + gamma * blocks.row_sums[r],
                                0.0, no_screen.slack)
            elif screened:
                screen = Screen(True, c_err, gamma, no_screen.slack)
            n_chosen, _, constant = select(r, dist[i], data.group, hood,
                                           buffers, screen, exact, n,
                                           speedups)
            if n_chosen == UNSETTLED:   # a radius rule: the float64 row
                distance_row(r, data, ones, False, dist[i], 0, n)
                n_chosen, _, constant = select(r, dist[i], data.group, hood,
                                               buffers, no_screen, exact, n,
                                               speedups)
            upd[b + i, :] = constant    # (0 but for MultiSURF*)
            if tiled and size > 1:
                codes[i] = buffers.selected[:n]
                shares[i] = buffers.shares
            else:
                update(r, buffers.chosen, buffers.coef, n_chosen, data,
                       regression, scratch, upd[b + i], buffers.ends)
            if with_sums:
                add_pair_sums(r, buffers.chosen, buffers.coef, n_chosen,
                              data, upd[b + i, a:])
        if tiled and size > 1:
            update_block(rows[b:b + size], codes, shares, data.num, data.nom,
                         acc_num, acc_nom, counts, upd[b:b + size, :a])
        b += size
