"""Write src/rougekit/text/data/nltk-stopwords.tsv from NLTK's stopwords corpus.

The XL-Sum scorer (multilingual-rouge 0.0.1) stems with NLTK's ``SnowballStemmer(lang,
ignore_stopwords=True)``, which leaves the words of ``nltk.corpus.stopwords.words(lang)``
unstemmed. rougekit ships those lists (only for the Snowball languages) so that it needs no
NLTK data. Usage (reads the corpus through NLTK itself, so the words are NLTK's):

    NLTK_DATA=../shared/data/nltk_data python tools/gen_nltk_stopwords.py [--check]

See src/rougekit/text/data/PROVENANCE.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src" / "rougekit" / "text" / "data" / "nltk-stopwords.tsv"
LANGUAGES = (
    "arabic", "danish", "dutch", "english", "finnish", "french", "german", "hungarian",
    "italian", "norwegian", "portuguese", "romanian", "russian", "spanish", "swedish",
)  # fmt: skip


def render() -> str:
    from nltk.corpus import stopwords

    lines = ["# language<TAB>word: nltk.corpus.stopwords.words(language) in its order (see PROVENANCE.md)"]
    for language in LANGUAGES:
        for word in stopwords.words(language):
            if "\t" in word or "\n" in word:
                raise SystemExit(f"{language}: a stopword with a tab or newline: {word!r}")
            lines.append(f"{language}\t{word}")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        if OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT} differs from NLTK's stopwords corpus", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
