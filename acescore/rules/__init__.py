"""The input rules: one side's database, the whole-corpus rules, lenient mode, validation and which documents a run scores."""
