"""Drop-in replacements for other ROUGE packages' APIs.

``rougekit.compat.rouge_scorer`` and ``rougekit.compat.scoring`` reproduce Google's
rouge-score 0.1.2 (``from rouge_score import rouge_scorer, scoring``)::

    from rougekit.compat import rouge_scorer, scoring

    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"], use_stemmer=True)
    scores = scorer.score(target, prediction)  # target (reference) first, as rouge-score

Note the argument order: rouge-score's ``score(target, prediction)`` is kept for
compatibility, while rougekit's own API takes candidates first.  Neither rouge-score
nor nltk is needed at run time.

``rougekit.compat.rouge`` reproduces the pltrdy ``rouge`` package 1.0.1
(``from rougekit.compat.rouge import Rouge, FilesRouge``, hypothesis first as there), and
``rougekit.compat.pyrouge`` pyrouge 0.1.3's ``Rouge155`` without Perl,
``rougekit.compat.files2rouge`` files2rouge 2.1.0 (``rougekit files2rouge``),
``rougekit.compat.evaluate`` the "rouge" module of Hugging Face evaluate 0.4.6 and
``rougekit.compat.torchmetrics`` torchmetrics 1.9.0's ``rouge_score`` and ``ROUGEScore``.
"""

from . import rouge_scorer, scoring

__all__ = ["rouge_scorer", "scoring"]
