"""Hori et al. (2004)'s measures under their documented path; they live in :mod:`rougekit.measures.hori`."""

from rougekit.measures import hori as _family
from rougekit.measures.hori import *  # noqa: F403 (the family's public names, its __all__)

__all__ = list(_family.__all__)
