"""The first row of a list judged by its shape: 20 header rows in eight languages each above
its players, every one recognised or asked about; 20 lists without a header (names with
diacritics, clubs, countries, yes/no columns), none taken for a header. And what the
header names: the fields, a surname-first name column, and no seat from a column's values.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from floor.imports import header
from floor.imports.columns import Field, guess, header_fields, special_needs, split_name
from floor.imports.preview import build
from floor.imports.sheet import Sheet
from tests.unit.test_paper_files import NOW, tournament

# Players ------------------------------------------------------------------------------------

#: (first names, surname) as each country's lists write them.
PEOPLE: dict[str, list[tuple[str, str]]] = {
    "cs": [
        ("Jiří", "Dvořák"), ("Tomáš", "Novák"), ("Eva", "Svobodová"), ("Petr", "Černý"),
        ("Jana", "Nováková"), ("Lukáš", "Procházka"), ("Anna", "Kučerová"), ("Martin", "Veselý"),
        ("Lucie", "Horáková"), ("Pavel", "Němec"), ("Kateřina", "Marková"), ("Ondřej", "Beneš"),
    ],
    "de": [
        ("Jürgen", "Müller"), ("Sören", "Schäfer"), ("Björn", "Weiß"), ("Käthe", "Groß"),
        ("Hans-Peter", "Böhm"), ("Ulrike", "Köhler"), ("Maximilian", "Hoffmann"),
        ("Lena", "Fuchs"), ("Tobias", "Krüger"), ("Jörg", "Schröder"), ("Anja", "Vogel"),
        ("Dieter", "Bäcker"),
    ],
    "pl": [
        ("Łukasz", "Wróbel"), ("Małgorzata", "Kowalczyk"), ("Paweł", "Zieliński"),
        ("Agnieszka", "Wiśniewska"), ("Grzegorz", "Dąbrowski"), ("Żaneta", "Kozłowska"),
        ("Michał", "Wójcik"), ("Katarzyna", "Mazur"), ("Jakub", "Szczęsny"),
        ("Joanna", "Krawczyk"), ("Wojciech", "Pawłowski"), ("Ewa", "Jabłońska"),
    ],
    "es": [
        ("José Ángel", "Núñez"), ("María", "García López"), ("Íñigo", "Martínez"),
        ("Begoña", "Fernández"), ("Raúl", "Sánchez"), ("Lucía", "Gómez"), ("Joaquín", "Muñoz"),
        ("Inés", "Jiménez"), ("Sergio", "Ramírez"), ("Nuria", "Peña"), ("Álvaro", "Díaz"),
        ("Ana Belén", "Ortiz"),
    ],
    "pt": [
        ("João", "Gonçalves"), ("Conceição", "Araújo"), ("Luís", "Magalhães"),
        ("Inês", "Simões"), ("António", "Conceição"), ("Sónia", "Lourenço"),
        ("Gonçalo", "Patrício"), ("Beatriz", "Antunes"), ("Tomé", "Brandão"),
        ("Leonor", "Estêvão"), ("Rúben", "Sequeira"), ("Marta", "Assunção"),
    ],
    "fr": [
        ("François", "Lefèvre"), ("Hélène", "Dubois"), ("Jérôme", "Moreau"),
        ("Anaïs", "Girard"), ("Gaëtan", "Bérenger"), ("Élodie", "Fournier"),
        ("Benoît", "Mercier"), ("Céline", "Lambert"), ("Loïc", "Faure"), ("Maëlle", "Rousseau"),
        ("Théo", "Garnier"), ("Noémie", "Chevalier"),
    ],
    "it": [
        ("Niccolò", "Rossi"), ("Chiara", "Ferrari"), ("Lorenzo", "Esposito"),
        ("Giulia", "Bianchi"), ("Mattia", "Romano"), ("Martina", "Colombo"),
        ("Francesco", "Ricci"), ("Sara", "Marino"), ("Gabriele", "Greco"),
        ("Alessia", "De Luca"), ("Andrea", "Bruno"), ("Federica", "Galli"),
    ],
    "en": [
        ("Seán", "O'Brien"), ("Siobhán", "Murphy"), ("Oliver", "Thompson"),
        ("Amelia", "Clarke"), ("Zoë", "Hughes"), ("Renée", "Walsh"), ("Jack", "Robinson"),
        ("Chloë", "Davies"), ("Harry", "McCarthy"), ("Emily", "Wright"), ("Noel", "Byrne"),
        ("Grace", "Kelly"),
    ],
}  # fmt: skip
CLUBS = {
    "cs": ["PokerClub Praha", "Card Casino Brno", "Kings Rozvadov", "Royal Ostrava"],
    "de": ["Spielbank Berlin", "Pokerfreunde München", "Casino Hamburg", "Kings Dresden"],
    "pl": ["Gdańsk Poker Club", "Warszawa Royal", "Kraków Aces", "Wrocław Stars"],
    "es": ["Casino Gran Madrid", "Club Póker Sevilla", "Casino Barcelona", "Valencia Aces"],
    "pt": ["Casino Lisboa", "Clube Porto", "Estoril Poker", "Casino Figueira"],
    "fr": ["Cercle Clichy", "Club Barrière Lille", "Casino Deauville", "Partouche Lyon"],
    "it": ["Circolo Milano", "Casinò Sanremo", "Roma Poker Club", "Casinò Venezia"],
    "en": ["Dusk Till Dawn", "Aspers Stratford", "Dublin Poker Club", "Grosvenor Leeds"],
}
CODES = {"cs": "CZ", "de": "DE", "pl": "PL", "es": "ES", "pt": "PT", "fr": "FR", "it": "IT",
         "en": "IE"}  # fmt: skip
COUNTRIES = {
    "cs": ["Česko", "Slovensko", "Rakousko"],
    "de": ["Deutschland", "Österreich", "Schweiz"],
    "pl": ["Polska", "Czechy", "Niemcy"],
    "es": ["España", "México", "Argentina"],
    "pt": ["Portugal", "Brasil", "Angola"],
    "fr": ["France", "Belgique", "Suisse"],
    "it": ["Italia", "San Marino", "Svizzera"],
    "en": ["Ireland", "England", "Wales"],
}
MARKS = {
    "cs": ("ano", "ne"),
    "de": ("ja", "nein"),
    "pl": ("tak", "nie"),
    "es": ("sí", "no"),
    "pt": ("sim", "não"),
    "fr": ("oui", "non"),
    "it": ("sì", "no"),
    "en": ("yes", "no"),
}
NOTES = {
    "cs": ["platí u pokladny", "", "přijde později", "", "", "VIP"],
    "it": ["paga alla cassa", "", "arriva tardi", "", "", "ospite"],
}


def cell(lang: str, what: str, i: int) -> str:
    given, surname = PEOPLE[lang][i % 12]
    match what:
        case "name":
            return f"{given} {surname}"
        case "surname_first":
            return f"{surname} {given}"
        case "surname_comma":
            return f"{surname}, {given}"
        case "first":
            return given
        case "last":
            return surname
        case "club":
            return CLUBS[lang][i % 4]
        case "code":
            return CODES[lang] if i % 3 else "SK"
        case "country":
            return COUNTRIES[lang][i % 3]
        case "paid":
            return MARKS[lang][0]
        case "mark":
            return MARKS[lang][0] if i % 4 == 1 else MARKS[lang][1]
        case "card":
            return str(10_400 + 17 * i)
        case "note":
            return NOTES[lang][i % 6]
        case "email":
            return f"{surname.casefold().replace(' ', '')}.{i}@example.com"
    raise AssertionError(what)


def body(lang: str, kinds: list[str], n: int = 12) -> list[list[str]]:
    return [[cell(lang, k, i) for k in kinds] for i in range(n)]


# The corpus ---------------------------------------------------------------------------------

#: (language, the header row, what each column below holds, the field each names).
HEADERS: list[tuple[str, list[str], list[str], list[Field | None]]] = [
    ("en", ["Name", "Club", "Country", "Paid"], ["name", "club", "code", "paid"],
     ["name", None, "country", None]),
    ("en", ["Surname, first name", "Card no.", "Wheelchair"], ["surname_comma", "card", "mark"],
     ["surname_name", "player", "special_needs"]),
    ("en", ["Player"], ["name"], ["name"]),
    ("cs", ["Příjmení a jméno", "Klub", "Buy-in zaplaceno"], ["surname_first", "club", "paid"],
     ["surname_name", None, None]),
    ("cs", ["Jméno", "Příjmení", "Karta", "Země"], ["first", "last", "card", "code"],
     ["first_name", "last_name", "player", "country"]),
    ("cs", ["Hráč", "Poznámka"], ["name", "note"], ["name", "note"]),
    ("de", ["Nachname Vorname", "Verein", "Bezahlt"], ["surname_first", "club", "paid"],
     ["surname_name", None, None]),
    ("de", ["Name", "Vorname", "Mitgliedsnummer", "Land"], ["last", "first", "card", "country"],
     ["last_name", "first_name", "player", "country"]),
    ("de", ["Spieler", "Rollstuhl"], ["name", "mark"], ["name", "special_needs"]),
    ("pl", ["Imię i nazwisko", "Klub", "Opłacono"], ["name", "club", "paid"],
     ["name", None, None]),
    ("pl", ["Nazwisko", "Imię", "Kraj"], ["last", "first", "code"],
     ["last_name", "first_name", "country"]),
    ("es", ["Apellidos, nombre", "Club", "Pagado"], ["surname_comma", "club", "paid"],
     ["surname_name", None, None]),
    ("es", ["Nombre", "País", "Número de socio"], ["name", "country", "card"],
     ["name", "country", "player"]),
    ("pt", ["Nome completo", "Clube", "Pago"], ["name", "club", "paid"], ["name", None, None]),
    ("pt", ["Sobrenome", "Nome", "Nacionalidade"], ["last", "first", "country"],
     ["last_name", "first_name", "country"]),
    ("fr", ["Nom et prénom", "Club", "Payé"], ["surname_first", "club", "paid"],
     ["surname_name", None, None]),
    ("fr", ["Prénom", "Nom", "N° de carte", "Fauteuil roulant"], ["first", "last", "card", "mark"],
     ["first_name", "last_name", "player", "special_needs"]),
    ("it", ["Cognome e nome", "Circolo", "Pagato"], ["surname_first", "club", "paid"],
     ["surname_name", None, None]),
    ("it", ["Nome", "Cognome", "Nazione", "Note"], ["first", "last", "code", "note"],
     ["first_name", "last_name", "country", "note"]),
    ("en", ["Full name", "E-mail", "Home club"], ["name", "email", "club"], ["name", None, None]),
]  # fmt: skip

#: Lists as clubs send them, no header: the first row is a player.
HEADERLESS: list[list[list[str]]] = [
    body("cs", ["name", "club", "paid"]),
    body("cs", ["surname_first", "card", "code"]),
    body("cs", ["name"]),
    body("de", ["surname_comma", "club", "paid"]),
    body("pl", ["name", "club", "mark"]),
    body("es", ["name", "code", "paid"]),
    body("pt", ["name", "club", "paid", "card"]),
    body("fr", ["name", "code", "mark"]),
    body("it", ["name", "club", "paid"]),
    body("en", ["name", "code", "mark"]),
    body("it", ["first", "last", "country", "note"]),
    body("de", ["last", "first", "card", "country"]),
    # The first player has no club and no mark; the others have.
    [["Eva Svobodová", "", ""], *body("cs", ["name", "club", "paid"])[1:]],
    body("pl", ["card", "name", "code"]),
    [
        ["Jan van Dijk", "NL"],
        ["Luis de la Cruz", "ES"],
        ["Ana da Silva", "PT"],
        ["Jean-Luc d'Arnaud", "FR"],
        ["Seán Ó Súilleabháin", "IE"],
        ["Ludwig von Bülow", "DE"],
        ["Pieter ter Horst", "NL"],
        ["Marco di Stefano", "IT"],
    ],
    body("cs", ["name", "country", "paid"]),
    [
        ["NOVÁK Jan", "PokerClub Praha"],
        ["DVOŘÁK Jiří", "Kings Rozvadov"],
        ["ČERNÁ Eva", "PokerClub Praha"],
        ["ŠIMEK Filip", "Royal Ostrava"],
        ["KRÁL Michal", "Kings Rozvadov"],
        ["BENEŠ Ondřej", "Card Casino Brno"],
    ],
    [
        ["Petr Černý", "1002", "CZ", "platí u pokladny"],
        ["Eva Svobodová", "1003", "CZ", ""],
        ["Jan Novák", "1004", "SK", "přijde později"],
        ["Anna Kučerová", "1005", "CZ", ""],
        ["Pavel Němec", "1006", "CZ", "VIP"],
    ],
    [
        ["Chiara Ferrari", "1", "x"],
        ["Lorenzo Esposito", "0", ""],
        ["Giulia Bianchi", "1", "x"],
        ["Mattia Romano", "1", ""],
        ["Martina Colombo", "0", "x"],
        ["Sara Marino", "1", ""],
    ],
    # The first player's club is one no other player comes from.
    [
        ["Agnieszka Wiśniewska", "Szczecin Poker Team", "tak"],
        *body("pl", ["name", "club", "paid"])[1:],
    ],
]


def test_the_corpus_is_what_the_issue_asks() -> None:
    languages = {lang for lang, *_ in HEADERS}
    assert languages == {"en", "cs", "de", "pl", "es", "pt", "fr", "it"}
    assert len(HEADERS) == 20 and len(HEADERLESS) == 20
    assert all(len({len(r) for r in rows}) == 1 for rows in HEADERLESS)


@pytest.mark.parametrize(("lang", "row", "kinds", "fields"), HEADERS, ids=lambda v: str(v))
def test_every_header_row_is_recognised_and_names_its_fields(
    lang: str, row: list[str], kinds: list[str], fields: list[Field | None]
) -> None:
    rows = [row, *body(lang, kinds)]
    assert header.judge(rows) == "yes"
    assert header_fields(row) == fields


@pytest.mark.parametrize(("lang", "row", "kinds", "fields"), HEADERS, ids=lambda v: str(v))
def test_a_header_alone_above_its_names_is_recognised_or_asked_about(
    lang: str, row: list[str], kinds: list[str], fields: list[Field | None]
) -> None:
    # The name column alone: no column of marks or numbers to tell the header by.
    i = next(i for i, k in enumerate(kinds) if k in ("name", "surname_first", "surname_comma",
                                                      "last", "first"))  # fmt: skip
    rows = [[row[i]], *([c[i]] for c in body(lang, kinds))]
    assert header.judge(rows) in ("yes", "ask")


@pytest.mark.parametrize("rows", HEADERLESS, ids=lambda rows: rows[0][0])
def test_no_list_without_a_header_is_taken_for_one_or_asked_about(rows: list[list[str]]) -> None:
    assert header.judge(rows) == "no"


def test_every_headerless_list_keeps_all_its_players_in_a_preview() -> None:
    # Each list's first row stays a player, each column of its marks seats nobody.
    for rows in HEADERLESS:
        fields = guess(rows, len(rows[0]))
        assert "special_needs" not in fields
        assert any(f == "name" for f in fields), rows[0]


def test_a_header_unlike_its_rows_in_a_language_no_word_list_holds_is_found() -> None:
    # Hungarian and Dutch: no word of them is known; the marks below them tell.
    hu = [["Név", "Klub", "Fizetett"], *body("cs", ["name", "club", "paid"])]
    hu[1:] = [[n, c, "igen"] for n, c, _ in hu[1:]]
    assert header.judge(hu) == "yes"
    nl = [["Naam", "Kaartnummer", "Betaald"], *body("en", ["name", "card", "mark"])]
    assert header.judge(nl) == "yes"


def test_a_first_row_only_a_little_unlike_the_rest_is_asked_about() -> None:
    # One word ("list"), all capitals, above names of two words: a header or a nickname.
    rows = [["SEZNAM"], *([n] for n in (f"{g} {s}" for g, s in PEOPLE["cs"]))]
    assert header.judge(rows) == "ask"


def test_special_needs_come_from_a_header_never_from_the_values() -> None:
    marks = body("cs", ["name", "mark"])
    assert guess(marks, 2) == ["name", None]
    assert header_fields(["Jméno", "Vozík"]) == ["name", "special_needs"]
    assert header_fields(["Jméno", "Buy-in zaplaceno"]) == ["name", None]
    assert [special_needs(c) for c in ("ano", "ne", "Nein", "non", "žádné", "", "vozík")] == [
        True, False, False, False, False, False, True,
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("written", "given", "surname"),
    [
        ("Novák Jan", "Jan", "Novák"),
        ("Novák, Jan", "Jan", "Novák"),
        ("García López, María", "María", "García López"),
        ("van der Berg Jan", "Jan", "van der Berg"),
        ("Nováková Marie Anna", "Marie Anna", "Nováková"),
        ("Madonna", "", "Madonna"),
    ],
)
def test_a_name_written_surname_first_keeps_its_surname(
    written: str, given: str, surname: str
) -> None:
    assert split_name(written) == (given, surname)


def test_header_words_in_every_language_name_the_same_fields() -> None:
    said: dict[str, Any] = {
        "surname_name": ["Příjmení a jméno", "Surname, first name", "Nachname Vorname",
                         "Name, Vorname", "Nazwisko i imię", "Apellidos y nombre",
                         "Sobrenome e nome", "Nom et prénom", "Cognome e nome"],
        "name": ["Jméno a příjmení", "First name and surname", "Vor- und Nachname",
                 "Imię i nazwisko", "Nombre y apellidos", "Nome e sobrenome", "Prénom et nom",
                 "Nome e cognome", "Jméno hráče", "Player name"],
    }  # fmt: skip
    for field, cells in said.items():
        for c in cells:
            assert header_fields([c]) == [field], c
    assert list(itertools.chain(*said.values()))


_CELLS = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["ano", "ne", "1001", "CZ", "Jméno", "Příjmení a jméno", "x", "", " "]),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(_CELLS, min_size=1, max_size=5), min_size=1, max_size=12))
def test_any_list_is_judged_and_previewed_without_a_seat_from_its_values(
    rows: list[list[str]],
) -> None:
    assert header.judge(rows) in ("yes", "no", "ask")
    p = build(Sheet(kind="tsv", encoding="utf-8", rows=rows, lines=list(range(1, len(rows) + 1))),
              tournament()[0], NOW)  # fmt: skip
    # Unless a header cell says special needs in words, nobody is seated apart.
    if "special_needs" not in header_fields(rows[0]):
        assert p.special_needs == 0
    assert p.included <= p.total
