"""``list(jieba.cut(text))`` computed by rougekit over the installed jieba's own tables, jieba itself otherwise.

:class:`JiebaCut` reads jieba's loaded prefix dictionary (``jieba.dt.FREQ``, ``jieba.dt.total``)
and its HMM tables (``jieba.finalseg``) and cuts as jieba's default ``cut(text)`` does (accurate
mode, HMM on) with the kernels of ``rougekit._core._segment_zh`` (or their pure twin): the same
pieces, many times faster. Nothing is copied or downloaded: the tables are jieba's, read at run
time. Before each cut it checks that jieba is still as it was read:

* the dictionary changed (a user dictionary loaded, ``add_word``, another dictionary set and
  loaded): the tables are read again (a tenth of a second);
* something it does not reproduce (a word deleted or forced apart, jieba's patterns or its
  ``cut`` replaced, e.g. by ``enable_parallel``, a non-``str`` text, a dictionary value that is not
  a count): jieba cuts.

A frequency changed in place in ``jieba.dt.FREQ`` without going through jieba's functions is not
seen (jieba's own functions always change the total or the number of keys).
"""

from __future__ import annotations

from types import ModuleType

from rougekit._core import backend

#: jieba 0.42's patterns: the word runs of ``cut``, its white space, the HMM's Han runs and numbers
PATTERNS = {
    "re_han_default": "([\u4e00-\u9fd5a-zA-Z0-9+#&\\._%\\-]+)",
    "re_skip_default": "(\r\n|\\s)",
}
HMM_PATTERNS = {"re_han": "([\u4e00-\u9fd5]+)", "re_skip": "([a-zA-Z0-9]+(?:\\.\\d+)?%?)"}


class JiebaCut:
    """``JiebaCut(jieba)(text)`` is ``list(jieba.cut(text))``; ``fallback`` says why jieba cuts itself, or None."""

    def __init__(self, jieba: ModuleType):
        self._jieba = jieba
        self._hmm = jieba.finalseg
        self._tables = None
        self._state: tuple = ()
        self.fallback: str | None = None
        self._read()

    def _now(self) -> tuple:
        """What the tables were read from, and what must not have changed since (compared by identity)."""
        jieba, hmm = self._jieba, self._hmm
        dt = jieba.dt
        return (
            *(dt.FREQ, hmm.start_P, hmm.trans_P, hmm.emit_P, jieba.cut),
            *(jieba.re_han_default, jieba.re_skip_default, hmm.re_han, hmm.re_skip),
        )

    def _changed(self) -> bool:
        """Has jieba changed since its tables were read? (one expression: this runs before every cut)"""
        jieba, hmm, state = self._jieba, self._hmm, self._state
        dt = jieba.dt
        freq = dt.FREQ
        return (
            freq is not state[0]
            or dt.total != self._total
            or len(freq) != self._size
            or not dt.initialized
            or bool(hmm.Force_Split_Words)
            or hmm.start_P is not state[1]
            or hmm.trans_P is not state[2]
            or hmm.emit_P is not state[3]
            or jieba.cut is not state[4]
            or jieba.re_han_default is not state[5]
            or jieba.re_skip_default is not state[6]
            or hmm.re_han is not state[7]
            or hmm.re_skip is not state[8]
        )

    def _unreproduced(self) -> str | None:
        jieba, hmm = self._jieba, self._hmm
        if not jieba.dt.initialized:
            return "jieba's dictionary is not loaded"
        cut = jieba.cut
        if getattr(cut, "__func__", None) is not jieba.Tokenizer.cut or cut.__self__ is not jieba.dt:
            return "jieba.cut is replaced"
        if hmm.Force_Split_Words:
            return "words are forced apart (jieba.del_word or a frequency of 0)"
        for module, patterns in ((jieba, PATTERNS), (hmm, HMM_PATTERNS)):
            for name, pattern in patterns.items():
                if getattr(module, name).pattern != pattern:
                    return f"jieba's pattern {name} is not jieba 0.42's"
        return None

    def _read(self) -> None:
        """Read jieba's tables now (or note why jieba must cut itself)."""
        dt, hmm = self._jieba.dt, self._hmm
        self._tables = None
        self._state, self._total, self._size = self._now(), dt.total, len(dt.FREQ)
        self.fallback = self._unreproduced()
        if self.fallback is None:
            try:
                self._tables = backend.segment_zh_module().Tables(
                    dt.FREQ, dt.total, hmm.start_P, hmm.trans_P, hmm.emit_P, hmm.MIN_FLOAT
                )
            except (ValueError, TypeError, KeyError, OverflowError) as exc:
                self.fallback = f"jieba's tables are not as rougekit reads them ({exc})"

    def __call__(self, text: str) -> list[str]:
        if self._changed():
            self._read()
        if self._tables is None or type(text) is not str:
            return list(self._jieba.cut(text))
        return self._tables.cut(text)
