"""The contract's steps, each written once and called by every backend:
data in kernel form, diffs, distances, neighbours and their influences,
the update of a visit, the estimate, SURF's pair means, STIR's pair sums
(doc/architecture.md, "The folders").
"""
