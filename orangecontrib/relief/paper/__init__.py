"""The seed paper's tooling: its experiments (``reproduce``, ``python -m
orangecontrib.relief.paper.reproduce``) and the classic filter scores it
compares with (``classic``).
"""
