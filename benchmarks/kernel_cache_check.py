"""What the check for stale cached kernels costs a process
(``core/backends/warmup.py``, ``check_cache``): the hash of core's sources, and
finding and reading the recorded one.

    python benchmarks/kernel_cache_check.py [--repeat 200]

Runs once per process, at the import of ``orangecontrib.relief.core``.
"""
import argparse
import timeit

from orangecontrib.relief.core.backends import warmup


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    repeat = parser.parse_args().repeat
    files = sorted(warmup.CORE.glob("*.py"))
    size = sum(path.stat().st_size for path in files)
    print(f"core: {len(files)} files, {size / 1e3:.0f} kB")
    times = {}
    for name, call in (("hash of the sources (_sources)", warmup._sources),
                       ("numba's folder (kernel_dir)", warmup.kernel_dir),
                       ("read the recorded hash (_recorded,"
                        " with kernel_dir)", warmup._recorded)):
        times[name] = timeit.timeit(call, number=repeat) / repeat
        print(f"{name:52} {times[name] * 1e3:6.2f} ms")
    # (check_cache, sources unchanged: one hash and one read)
    total = times["hash of the sources (_sources)"] + times[name]
    print(f"{'check_cache, sources unchanged':52} {total * 1e3:6.2f} ms")


if __name__ == "__main__":
    main()
