"""What every registry entry has (a rule of ``rules.RULES``, a test of
``stats.TESTS``), and the one way to look a name up in a registry."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Entry:
    """A registered choice: the name options, saved settings and the
    command line use, how menus and titles write it, and one sentence for
    tooltips and ``--help``."""
    name: str
    display_name: str
    description: str


def lookup(registry, name, option):
    """``registry[name]``, or a ValueError that names ``option`` and lists
    the registered names."""
    try:
        return registry[name]
    except (KeyError, TypeError):
        raise ValueError(f"{option} must be one of "
                         f"{', '.join(map(repr, registry))}; got {name!r}.") \
            from None
