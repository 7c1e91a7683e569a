"""The report's tables as data: conditions, records, detection and recognition counts, per-pass sections."""
