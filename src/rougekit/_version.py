"""The package's version (pyproject.toml's), at the bottom layer: the signature and the reports print it."""

__version__ = "0.1.0"
