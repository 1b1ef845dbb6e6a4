"""Command line: ``python -m orangecontrib.relief demo``."""
import argparse
import sys
import time

from orangecontrib.relief.datasets import corral
from orangecontrib.relief.scoring import DReliefF, PDReliefF, ReliefF


def demo(args):
    """Score the bundled CorrAl data (seed Table corral) with the three
    algorithms and print the weights side by side, best ReliefF first."""
    table = corral(args.rows)
    scorers = [S(k_nearest=args.k, random_state=args.seed)
               for S in (ReliefF, DReliefF, PDReliefF)]
    start = time.perf_counter()
    columns = [scorer(table) for scorer in scorers]
    elapsed = time.perf_counter() - start
    names = [var.name for var in table.domain.attributes]
    relevant = {var.name for var in table.domain.attributes
                if var.attributes.get("relevant")}
    print(f"CorrAl, {len(table)} instances; class = (A0 and A1) or (B0 and B1)"
          f"; k = {args.k}, seed = {args.seed}")
    print(f"{'feature':<12}" + "".join(f"{s.name:>11}" for s in scorers))
    for i in sorted(range(len(names)), key=lambda i: -columns[0][i]):
        mark = " *" if names[i] in relevant else ""
        print(f"{names[i] + mark:<12}"
              + "".join(f"{column[i]:>11.3f}" for column in columns))
    print("* relevant feature.  Separability (weakest relevant minus best "
          "other):")
    for scorer, column in zip(scorers, columns):
        weights = dict(zip(names, column))
        s = (min(weights[n] for n in relevant)
             - max(w for n, w in weights.items() if n not in relevant))
        print(f"  {scorer.name:<10} {s:+.3f}")
    print(f"({elapsed:.2f} s, including the first compilation of the kernels "
          "if this is the first run)")
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m orangecontrib.relief",
        description="Relief feature weighting for Orange.")
    commands = parser.add_subparsers(dest="command", required=True)
    demo_parser = commands.add_parser(
        "demo", help="score the bundled CorrAl data with ReliefF, dReliefF "
                     "and pdReliefF")
    demo_parser.add_argument("--rows", type=int, default=160,
                             choices=(32, 160))
    demo_parser.add_argument("--k", type=int, default=5)
    demo_parser.add_argument("--seed", type=int, default=0)
    demo_parser.set_defaults(run=demo)
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
