"""Tools to judge feature weights: success measures when the important features
are known (seed, "Empirical results"), wrapper accuracy curves, and the seed's
redundancy level R'."""
from .metrics import (WeightQuality, completeness, important_mask, minimality,
                      separability, usability, weight_quality)
from .redundancy import redundancy_level
from .wrapper import LEAVE_ONE_OUT, NN_VOTE, PROTOCOLS, WrapperCurve, wrapper_curve

__all__ = ["separability", "usability", "minimality", "completeness",
           "weight_quality", "WeightQuality", "important_mask",
           "wrapper_curve", "WrapperCurve", "PROTOCOLS", "LEAVE_ONE_OUT", "NN_VOTE",
           "redundancy_level"]
