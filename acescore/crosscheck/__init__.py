"""Cross-checking acescore against the user's own copy of the NIST tool.

* :mod:`.nist_tool`  -- staging (the tool gets safe numbered names in a private folder, never
  the user's paths), running it, comparing reports section by section;
* :mod:`.perl_scan`  -- a small Perl lexer: the ``keys``/``values``/``each`` traversals of a
  script, by subroutine;
* :mod:`.versions`   -- per-version rule tables (data): which traversals get which canonical
  order (ace08-eval-v08, ace07-eval-v01, ace05-eval-v14);
* :mod:`.rewriter`   -- recognises the version (SHA-256 or structure) and derives a
  deterministic copy, checked before use;
* :mod:`.session`    -- one crosscheck: the deterministic copy once, or the tool N times with
  its tie lines told from real differences.
"""
