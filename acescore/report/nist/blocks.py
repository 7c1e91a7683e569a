"""The text of a listing as blocks (``-s``, ``-a``/``-e``): a header, then one block per
element in sort-key order, with where each block starts, so that the listings of document
shards merge by key (:mod:`acescore.report.listing_records`) and a listing is sent from a
process to another, or written to a spool file, as few objects."""

from __future__ import annotations

from itertools import accumulate


class Blocks(list):
    """The text pieces of a listing, with where the block of each element starts: a listing
    is a header, then one block per element in sort-key order, so the blocks of document
    shards merge by key (:mod:`acescore.report.listing_records`)."""

    def __init__(self, head: str):
        super().__init__([head])
        self.starts: list = []  # (sort key, index of the block's first piece)

    def start(self, key) -> None:
        self.starts.append((key, len(self)))

    def packed(self) -> tuple:
        """(header, the blocks' sort keys in listing order, the blocks' text, where each
        block starts in it): few objects to send from a process to another."""
        return packed(self.pieces())

    def packed_by_group(self) -> tuple:
        """:meth:`packed` of a mapping listing as two (:meth:`pieces_by_group`)."""
        return tuple(map(packed, self.pieces_by_group()))

    def pieces(self) -> tuple:
        """(header, the blocks' sort keys in listing order, the blocks' pieces, the index
        of each block's first piece in them): :meth:`packed` before the pieces are joined
        (:func:`packed`), or encoded and written to a spool file
        (:meth:`acescore.writing.spool.SpoolWriter.put`)."""
        return self._pieces(self[0], self.starts, 1, len(self))

    def pieces_by_group(self) -> tuple:
        """:meth:`pieces` of a mapping listing as two: its REF blocks (keys (0, ID)) with
        the header, its SYS blocks (keys (1, ID)) with an empty one.  Each text is then
        used whole when the shards' listings are merged (a mapping listing may be ~100
        MB: no copy of parts of it)."""
        starts = self.starts
        k = next((i for i, (key, _) in enumerate(starts) if key[0] == 1), len(starts))
        cut = starts[k][1] if k < len(starts) else len(self)
        return (
            self._pieces(self[0], starts[:k], 1, cut),
            self._pieces("", starts[k:], cut, len(self)),
        )

    def _pieces(self, head: str, starts: list, lo: int, hi: int) -> tuple:
        """The pieces of the blocks ``starts`` made of pieces ``lo`` to ``hi``."""
        return head, [k for k, _ in starts], self[lo:hi], [i - lo for _, i in starts]


def packed(pieces: tuple) -> tuple:
    """:meth:`Blocks.pieces` as :meth:`Blocks.packed`: the pieces joined, and where each
    block starts in the text."""
    head, keys, parts, firsts = pieces
    before = [0, *accumulate(map(len, parts))]  # [i]: the length of i pieces
    return head, keys, "".join(parts), [before[i] for i in firsts]


__all__ = ["Blocks", "packed"]
