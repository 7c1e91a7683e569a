"""Cross-checking acescore against the user's own copy of the NIST tool."""
