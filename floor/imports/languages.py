"""A player's language as an imported list writes it: a code ("de", "DE", "pt-BR") or the
language's name in English, in itself or in Czech ("German", "Deutsch", "němčina"), made the
screens' code (``floor.server.languages.LANGUAGES``). A cell the import cannot read is flagged
and left out, never guessed."""

from __future__ import annotations

from typing import Final

from .words import fold

#: Each language's names, folded (no case, no diacritics), by the screens' code.
_NAMES: Final[dict[str, tuple[str, ...]]] = {
    "en": ("english", "anglictina", "englisch", "angielski", "ingles", "anglais", "inglese"),
    "cs": ("czech", "cestina", "cesky", "tschechisch", "czeski", "checo", "tcheque", "ceco"),
    "de": ("german", "deutsch", "nemcina", "niemiecki", "aleman", "allemand", "tedesco"),
    "pl": ("polish", "polski", "polstina", "polnisch", "polaco", "polonais", "polacco"),
    "es": (
        "spanish",
        "espanol",
        "castellano",
        "spanelstina",
        "spanisch",
        "hiszpanski",
        "espagnol",
        "spagnolo",
    ),
    "pt-br": (
        "portuguese",
        "portugues",
        "brazilian",
        "brasileiro",
        "portugalstina",
        "portugiesisch",
        "portugalski",
        "portugais",
        "portoghese",
    ),
    "fr": (
        "french",
        "francais",
        "francouzstina",
        "franzosisch",
        "francuski",
        "frances",
        "francese",
    ),
    "it": ("italian", "italiano", "italstina", "italienisch", "wloski", "włoski", "italien"),
}
_BY_NAME: Final[dict[str, str]] = {name: code for code, names in _NAMES.items() for name in names}


def language_code(cell: str) -> str | None:
    """The screens' code of a language as a list writes it; None when it is none known."""
    text = cell.strip()
    if not text:
        return None
    code = text.lower().replace("_", "-")
    if code in _NAMES:
        return code
    base = code.split("-")[0]
    if base == "pt":
        return "pt-br"
    if base in _NAMES and len(code) <= 6:
        return base
    return _BY_NAME.get(fold(text).replace(" ", ""))
