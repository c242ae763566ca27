"""``word_tokenize(text, engine="newmm")`` computed by rougekit over pythainlp's own data, pythainlp otherwise.

:class:`NewmmCut` reads, at run time, the installed pythainlp's default word dictionary (the trie
``word_dict_trie()`` that newmm uses when no dictionary is given) and its Thai Character Cluster
pattern (parsed by :func:`parse_clusters`), and cuts with ``rougekit._core._segment_th`` (or its
pure twin) as newmm does; pythainlp's own post-processing (rejoining numbers such as 1,234.5 that
newmm cut apart) is then applied as ``word_tokenize`` applies it. Before each cut it checks that
pythainlp is still as it was read (the same trie object with the same number of words, the same
patterns and limit); when a pattern is not one it knows how to read, or the compiled kernels are
not built (the pure twin is slower than pythainlp itself), pythainlp cuts.
"""

from __future__ import annotations

from types import ModuleType

from rougekit._core import backend

#: pythainlp 5's patterns that rougekit reproduces (non-Thai tokens, two consonants, formatted numbers)
NON_THAI = (
    "(?x)\n[-a-zA-Z]+|        # Latin characters\n\\d+([,\\.]\\d+)*|    # numbers\n[ \\t]+|            # spaces\n"
    "\\r?\\n|             # newlines\n[^\\u0E00-\\u0E7F \\t\\r\\n]+  # other non-Thai characters, and stops "
    "matching until space/newline\n"
)
TWO_CONSONANTS = "[ก-ฮ]{,2}$"
FORMATTED_NUMBER = "(\\d+[\\.\\,:])+\\d+"

CLASS, GROUP, GROUP_END, LOOK = 0, 1, 2, 3


def _class(body: str) -> tuple:
    """``a-z`` ranges and single characters of a bracket expression (no escapes, no negation)."""
    if not body or body[0] == "^" or "\\" in body:
        raise ValueError(f"unsupported class [{body}]")
    ranges, i = [], 0
    while i < len(body):
        if i + 2 < len(body) and body[i + 1] == "-":
            ranges.append((ord(body[i]), ord(body[i + 2])))
            i += 3
        else:
            ranges.append((ord(body[i]), ord(body[i])))
            i += 1
    return tuple(ranges)


def parse_clusters(pattern: str) -> list[list[tuple]]:
    """pythainlp's cluster pattern as rules of nodes ``(kind, optional, ranges, extra)``.

    The subset it uses: characters, bracket classes, ``?``, optional groups ``(...)?`` and
    lookaheads ``(?=[...]|$)``, alternatives joined by ``|``. Anything else: ValueError.
    """
    rules: list[list[tuple]] = [[]]
    open_groups: list[int] = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        rule = rules[-1]
        if ch == "|" and not open_groups:
            rules.append([])
            i += 1
        elif ch == "[":
            close = pattern.index("]", i + 1)
            rule.append([CLASS, False, _class(pattern[i + 1 : close]), 0])
            i = close + 1
        elif pattern.startswith("(?=", i):
            close = pattern.index(")", i)
            ranges, dollar = [], 0
            for part in pattern[i + 3 : close].split("|"):
                if part == "$":
                    dollar = 1
                elif part.startswith("[") and part.endswith("]"):
                    ranges.extend(_class(part[1:-1]))
                else:
                    raise ValueError(f"unsupported lookahead {pattern[i : close + 1]}")
            rule.append([LOOK, False, tuple(ranges), dollar])
            i = close + 1
        elif ch == "(":
            if pattern.startswith("(?", i):
                raise ValueError(f"unsupported group at {pattern[i : i + 10]}")
            open_groups.append(len(rule))
            rule.append([GROUP, False, (), 0])
            i += 1
        elif ch == ")":
            start = open_groups.pop()
            rule[start][3] = len(rule)
            rule.append([GROUP_END, False, (), 0])
            i += 1
        elif ch == "?":
            last = rule[-1]
            if last[0] == GROUP_END:
                last = rule[[k for k in range(len(rule)) if rule[k][0] == GROUP and rule[k][3] == len(rule) - 1][0]]
            if last[1] or last[0] == LOOK:
                raise ValueError("unsupported quantifier")
            last[1] = True
            i += 1
        elif ch in "\\.*+{}^$":
            raise ValueError(f"unsupported pattern character {ch!r}")
        else:
            rule.append([CLASS, False, ((ord(ch), ord(ch)),), 0])
            i += 1
    if open_groups or any(node[0] == GROUP and not node[1] for rule in rules for node in rule):
        raise ValueError("unsupported group (not optional, or unclosed)")
    return [[tuple(node) for node in rule] for rule in rules]


class NewmmCut:
    """``NewmmCut(pythainlp_tokenize)(text)`` is ``word_tokenize(text, engine="newmm")``."""

    def __init__(self, tokenize: ModuleType):
        from pythainlp.tokenize import _utils, core, newmm, tcc_p

        self._tokenize, self._newmm, self._tcc, self._utils, self._core = tokenize, newmm, tcc_p, _utils, core
        self._tables = None
        self._state: tuple = ()
        self.fallback: str | None = None
        self._read()

    def _now(self) -> tuple:
        newmm, utils = self._newmm, self._utils
        trie = newmm.word_dict_trie()
        return (
            trie,
            len(trie),
            self._tcc._PAT_TCC,
            newmm._PAT_NONTHAI,
            newmm._PAT_THAI_TWOCHARS,
            newmm._MAX_GRAPH_SIZE,
            utils._DIGITS_WITH_SEPARATOR,
            self._tokenize.word_tokenize,
            newmm.segment,
            self._core.rejoin_formatted_num,
        )

    def _read(self) -> None:
        self._tables = None
        self._state = now = self._now()
        trie, _, tcc, non_thai, two, limit, number = now[:7]
        self._rejoin = now[-1]  # core.rejoin_formatted_num: what word_tokenize calls
        if (non_thai.pattern, two.pattern, number.pattern) != (NON_THAI, TWO_CONSONANTS, FORMATTED_NUMBER):
            self.fallback = "pythainlp's newmm patterns are not the ones rougekit reproduces"
            return
        try:
            clusters = parse_clusters(tcc.pattern)
        except (ValueError, IndexError) as exc:
            self.fallback = f"pythainlp's cluster pattern is not one rougekit reads ({exc})"
            return
        if not backend.compiled():
            self.fallback = "the compiled kernels are not built (the pure twin is slower than pythainlp)"
            return
        self.fallback = None
        self._tables = backend.segment_th_module().Tables(list(trie), clusters, int(limit))

    def _changed(self) -> bool:
        """Has pythainlp changed since its data was read? (one expression: this runs before every cut)"""
        newmm, state = self._newmm, self._state
        trie = newmm.word_dict_trie()
        return (
            trie is not state[0]
            or len(trie) != state[1]
            or self._tcc._PAT_TCC is not state[2]
            or newmm._PAT_NONTHAI is not state[3]
            or newmm._PAT_THAI_TWOCHARS is not state[4]
            or newmm._MAX_GRAPH_SIZE != state[5]
            or self._utils._DIGITS_WITH_SEPARATOR is not state[6]
            or self._tokenize.word_tokenize is not state[7]
            or newmm.segment is not state[8]
            or self._core.rejoin_formatted_num is not state[9]
        )

    def __call__(self, text: str) -> list[str]:
        if self._changed():
            self._read()
        if self._tables is None or type(text) is not str:
            return self._tokenize.word_tokenize(text, engine="newmm")
        return self._tables.cut(text, self._rejoin)
