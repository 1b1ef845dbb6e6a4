"""File formats that Orange does not read by itself.

Importing :mod:`orangecontrib.relief.io.arff` registers Weka's ARFF reader
and writer with :class:`Orange.data.io.FileFormat`, after which
``Orange.data.Table("data.arff")`` and the File widget open ``.arff`` files.

:mod:`orangecontrib.relief.io.reading` reads any file Orange reads with the
guards the command line needs (no pickles, one-line errors for broken, empty
and ragged files, the columns that are not features named).
"""
