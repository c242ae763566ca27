"""rougekit: ROUGE exactly as ROUGE-1.5.5.pl computes it, with no Perl."""

__version__ = "0.1.0"
