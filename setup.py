"""orange3-relief: the Relief family of feature weighting algorithms for Orange."""
from pathlib import Path

from setuptools import setup, find_namespace_packages

HERE = Path(__file__).parent
# Where NVIDIA publishes the NVVM and NVRTC wheels (tests/test_cuda_ptx.py)
NVIDIA_WHEELS = ('(sys_platform == "linux" and (platform_machine == "x86_64" '
                 'or platform_machine == "aarch64")) or (sys_platform == '
                 '"win32" and platform_machine == "AMD64")')


def help_files(source="doc/_build/htmlhelp", target="help/orange3-relief",
               patterns=("**/*",)):
    """data_files for the HTML help built by
    ``sphinx-build -b htmlhelp doc doc/_build/htmlhelp``; Orange finds it at
    ``<sys.prefix>/help/orange3-relief/index.html`` (WIDGET_HELP_PATH).
    With ``patterns``: those files of ``source``."""
    base = HERE / source
    groups = {}
    for path in sorted(p for pattern in patterns for p in base.glob(pattern)):
        if path.is_file():
            folder = (Path(target) / path.parent.relative_to(base)).as_posix()
            groups.setdefault(folder, []).append(
                path.relative_to(HERE).as_posix())
    return sorted(groups.items())


# The widget pages' Markdown, which orangecontrib/relief/widgets/offline_help.py
# renders where no HTML help was built (a wheel built without Sphinx)
MARKDOWN_HELP = help_files("doc", "help/orange3-relief/markdown",
                           ("widgets.json", "widgets/*.md",
                            "widgets/images/*"))

setup(
    name="orange3-relief",
    version="0.1.0",
    description="ReliefF, dReliefF and pdReliefF feature weighting for Orange, "
                "with tools to judge feature weights.",
    long_description=(HERE / "README.md").read_text(encoding="utf-8"),
    long_description_content_type="text/markdown",
    license="GPL-3.0-or-later",
    keywords=["orange3 add-on", "feature selection", "feature weighting",
              "relief", "relieff"],
    packages=find_namespace_packages(include=["orangecontrib.*"]),
    package_data={
        "orangecontrib.relief": ["datasets/*.tsv", "datasets/*.tab",
                                 "datasets/README.md"],
        "orangecontrib.relief.widgets": ["icons/*.svg"],
        "orangecontrib.relief.tutorials": ["*.ows"],
    },
    python_requires=">=3.9",
    install_requires=[
        "orange3>=3.34",
        "AnyQt",
        "numpy",
        "scipy",
        # numba compiles the engine's kernels (core/backends/compiled/relieff_loop.py, core/backends/compiled/feedback_loop.py)
        "numba>=0.57",
        # renders the widgets' help pages offline (offline_help.py); Orange's
        # canvas (orange-canvas-core) requires it too
        "commonmark",
    ],
    extras_require={
        "gui": ["PyQt6"],
        # tests/test_distributed.py runs a real LocalCluster; tests/test_cuda.py
        # runs the GPU kernels under numba-cuda's simulator where there is no GPU
        # and tests/test_cuda_ptx.py compiles them to PTX without one: NVVM
        # (nvcc's wheel) and NVRTC (numba-cuda 0.30 loads it to find libdevice)
        "test": ["pytest", "pytest-qt", "dask[distributed]", "numba-cuda",
                 f"nvidia-cuda-nvcc-cu12; {NVIDIA_WHEELS}",
                 f"nvidia-cuda-nvrtc-cu12; {NVIDIA_WHEELS}"],
        # device="cuda" (core/backends/cuda/backend.py): numba-cuda compiles the GPU kernels.
        # numba-cuda 0.30.4 still calls numpy.row_stack, which numpy 2.5
        # removed: numpy below 2.5 with it (tested with numpy 2.3.5)
        "gpu": ["numba-cuda>=0.30", "numpy<2.5"],
        # orangecontrib.relief.distributed: ReliefF on a Dask cluster
        "dask": ["dask[distributed]"],
        "doc": ["sphinx", "myst-parser"],
    },
    data_files=help_files() + MARKDOWN_HELP,
    entry_points={
        # listed in Orange's add-on dialog
        "orange3.addon": ("relief = orangecontrib.relief",),
        # the "Relief" category of the widget toolbox
        "orange.widgets": ("Relief = orangecontrib.relief.widgets",),
        "orange.canvas.help": (
            "html-index = orangecontrib.relief.widgets:WIDGET_HELP_PATH",),
        "orange.widgets.tutorials": (
            "relief = orangecontrib.relief.tutorials",),
    },
    classifiers=[
        "Programming Language :: Python :: 3",
        "Intended Audience :: Science/Research",
        "Topic :: Scientific/Engineering :: Artificial Intelligence",
    ],
    zip_safe=False,
)
