"""Explain a score: the tokens each measure saw and the units that matched (``rougekit.explain``).

>>> e = explain("police kill the gunman", "police killed the gunman", measures=["ROUGE-1"])
>>> [x["tokens"] for x in e.to_dict()["measures"]["ROUGE-1"]["matches"]]
[['police'], ['the'], ['gunman']]
"""

from rougekit.explanation.build import explain
from rougekit.explanation.model import Explanation, MeasureExplanation, Side

__all__ = ["explain", "Explanation", "MeasureExplanation", "Side"]
