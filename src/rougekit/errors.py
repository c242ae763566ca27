"""Errors that the command line turns into a one-line message and exit code 2."""


class RougeKitError(Exception):
    """Bad input or a bad option: shown to the user as one line, exit code 2."""


class InputError(RougeKitError):
    """A file, line or value that cannot be read."""


class OptionError(RougeKitError):
    """A command-line or keyword option with a bad value."""
