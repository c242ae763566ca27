"""Command-line front ends over the rougekit engine."""
