"""The engine's speed mechanisms, each of which can be switched off.

None of them changes a weight: every screen has a proven error bound and the
neighbours are decided by float64 distances, and the sums are added in the
same order whichever mechanism computes them.  The tests switch each one off
and compare the weights bit for bit; ``benchmarks/mechanisms.py`` measures
what each buys (``benchmarks/RESULTS.md``, "Speed mechanisms").
``doc/architecture.md`` says where each lives.
"""
from typing import NamedTuple


class Speedups(NamedTuple):
    """Which speed mechanisms the engine uses (all by default).

    ReliefF
        ``blocks``: visits in blocks of four that share each pass over the
        data, with screening distances (else each visit's float64 distance
        row); ``min_form``: |x - y| = x + y - 2 min(x, y) in those blocks;
        ``float32_copy``: the blocks read a float32 copy (else float64
        data); ``by_feature``: data with at most 64 numeric features
        screened feature by feature; ``thread_pool``: threads kept between
        calls; ``reused_buffer``: one buffer of per-visit updates for every
        batch; ``block_update``: a radius rule's block of visits adds its
        updates in one pass over big data (``updates.update_block``).
    dReliefF / pdReliefF
        ``weighted_screen``: float32 weighted screening distances (else
        float64 distance rows); ``uint16_copy``: a uint16 screening copy of
        big data; ``zero_weight_skip``: the columns of weight 0 kept last and
        left out; ``parallel_rows``: one distance row split over the threads;
        ``running_row_sums``: sparse rows' weighted sums followed feature by
        feature (else summed afresh at every visit); ``waiting_changes``:
        pdReliefF lets small changes of those sums wait; ``fused_sparse``:
        on sparse data, a visit's update and the next weights in the parallel
        region of the running sums.
    Both
        ``settle``: float64 distances only for the candidates whose choice a
        screen leaves open (else for every candidate); ``sampled_kth``: the
        k-th distance found from a bound of every 8th row; ``prefetch``:
        sparse column walks request their columns ahead; ``expectations``:
        with missing values, RELIEF-D's E|X - v| looked up per instance,
        feature and class by the distance rows, updates and STIR sums
        (``prepare.Expectations``; else a search in the class law per
        term).
    """
    blocks: bool = True
    min_form: bool = True
    float32_copy: bool = True
    by_feature: bool = True
    thread_pool: bool = True
    reused_buffer: bool = True
    block_update: bool = True
    weighted_screen: bool = True
    uint16_copy: bool = True
    zero_weight_skip: bool = True
    parallel_rows: bool = True
    running_row_sums: bool = True
    waiting_changes: bool = True
    fused_sparse: bool = True
    settle: bool = True
    sampled_kth: bool = True
    prefetch: bool = True
    expectations: bool = True


ALL = Speedups()
