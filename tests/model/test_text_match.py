"""text_match (docs/rules/entities.md §1.3): the longest common substring of two head texts
(upper case; ASCII texts without their non-alphanumeric characters) over the longer."""

import random

from acescore.model.spans import text_match


def _longest_by_brute_force(x: str, y: str) -> int:
    best = 0
    for i in range(len(x)):
        for j in range(len(y)):
            n = 0
            while i + n < len(x) and j + n < len(y) and x[i + n] == y[j + n]:
                n += 1
            best = max(best, n)
    return best


def test_hand_computed() -> None:
    assert text_match("Lindquay Clinic", "the lindquay clinic") == 14 / 17  # LINDQUAYCLINIC
    assert text_match("Dorwyner", "DORWYNER") == 1
    assert text_match("she", "her") == 2 / 3  # HE
    assert text_match("abc", "xyz") == 0.0
    assert text_match("", "") == 1
    assert text_match("0", "") == 0.0  # both false: compared as strings
    assert text_match("a", "") == 0  # one false
    assert text_match("Léa D.", "léa") == 3 / 6  # not ASCII: punctuation and spaces stay


def test_longest_common_substring_against_brute_force() -> None:
    rnd = random.Random(7)
    alphabet = "abAB01 .-é"
    for _ in range(3000):
        x = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 9)))
        y = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 9)))
        ux, uy = x.upper(), y.upper()
        if ux.isascii() and uy.isascii():
            ux = "".join(c for c in ux if c.isalnum())
            uy = "".join(c for c in uy if c.isalnum())
        if not ux or not uy or ux == uy or "0" in (ux, uy):
            continue
        assert text_match(x, y) == _longest_by_brute_force(ux, uy) / max(len(ux), len(uy))
