"""Drop-in for ``rouge_score.tokenizers``: its ``Tokenizer`` base and ``DefaultTokenizer`` (also
reached as ``rougekit.compat.rouge_scorer.tokenizers``, as ``rouge_score.rouge_scorer.tokenizers`` is)."""

from ._tokenize import DefaultTokenizer, Tokenizer

__all__ = ["DefaultTokenizer", "Tokenizer"]
