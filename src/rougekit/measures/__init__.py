"""Measures: values with canonical names, and the registry of families that compute them.

>>> Measure.parse("rouge-su4")
Measure(kind='SU', n=None, weight=None, skip=4, be_mode=None, label=None)
>>> str(Measure.parse("ROUGE-W-1.2")), str(Measure.parse("ROUGE-S*")), str(Measure.rouge_n(2))
('ROUGE-W-1.2', 'ROUGE-S*', 'ROUGE-2')

Adding a measure: one module here with a :class:`~rougekit.measures.base.Family` subclass
(name pattern, canonical name, statistics through its kernel and twin) registered with
:func:`~rougekit.measures.registry.register`, imported below; plus its tests (the full list of
files: docs/architecture.md, "Adding a measure").
"""

from rougekit.measures import basic_elements, distinct, hori, lcs, lin_hovy, ngram, skipgram  # noqa: F401  (registers)
from rougekit.measures.base import Family, Measure
from rougekit.measures.basic_elements import BE_MODES
from rougekit.measures.registry import families, family_of, parse, register, split_measure_list

__all__ = ["Measure", "Family", "BE_MODES", "parse", "register", "families", "family_of", "split_measure_list"]
