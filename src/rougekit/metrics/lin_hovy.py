"""Lin & Hovy (2003)'s measures under their documented path; they live in :mod:`rougekit.measures.lin_hovy`."""

from rougekit.measures import lin_hovy as _family
from rougekit.measures.lin_hovy import *  # noqa: F403 (the family's public names, its __all__)

__all__ = list(_family.__all__)
