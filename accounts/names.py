"""Usernames: one Unicode form (NFKC), and no look-alikes of other players' names."""

import unicodedata

from confusable_homoglyphs import confusables


def username_normalize(name: str) -> str:
    """NFKC: full-width "ａｎｎ" and ligatures become the plain letters people read."""
    return unicodedata.normalize("NFKC", name)


def username_skeleton(name: str) -> str:
    """The name as Latin letters where a letter of another script looks like one
    (Cyrillic "аnn" reads "ann"), case-folded. Digits and Latin letters stay."""
    found = confusables.is_confusable(name, greedy=True, preferred_aliases=["latin"]) or []
    swap = {}
    for entry in found:
        if entry["alias"] in ("LATIN", "COMMON"):
            continue
        latin = [g["c"] for g in entry["homoglyphs"] if g["n"].startswith("LATIN")]
        if latin:
            swap[entry["character"]] = latin[0]
    return "".join(swap.get(c, c) for c in name).casefold()


# ASCII that reads alike: digits for letters, and the separators. Applied after the
# skeleton, so "b0t_strong" and "bot-str0ng" read "bot-strong".
ASCII_FOLD = {"0": "o", "1": "l", "i": "l", "|": "l", "_": "-", ".": "-"}
_FOLD_TABLE = str.maketrans(ASCII_FOLD)


def username_folded(name: str) -> str:
    """The name as it reads: its skeleton with ASCII look-alikes made one. Two names that
    fold alike are one name to a reader."""
    return username_skeleton(name).translate(_FOLD_TABLE)


def username_mixes_lookalike_scripts(name: str) -> bool:
    """Letters of several scripts that look alike (Latin "b" with a Cyrillic "о")."""
    return bool(confusables.is_dangerous(name))
