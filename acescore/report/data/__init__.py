"""The machine-readable report: JSON and CSV."""
