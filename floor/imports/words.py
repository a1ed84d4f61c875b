"""The words a player list's header and cells are written in: English, Czech, German,
Polish, Spanish, Portuguese, French and Italian, folded (lower case, no diacritics).

Two uses, kept apart. *Naming a field*: the header cell "Karta" says the column holds card
numbers, "Příjmení a jméno" that it holds names surname first. *Looking like a header*:
a cell made of such words ("Klub", "Bezahlt") is unlike a player's cell, one sign among the
shapes ``header`` weighs; a header in a language not here is found by its shape alone.

Multi-word terms are joined into one token before a cell's words are looked up
(``PHRASES``), so that "first name" is a first name and not a "name".
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final


def words_of(text: str) -> frozenset[str]:
    """The words of ``text``, split on spaces: long lists stay readable."""
    return frozenset(text.split())


#: Joined before lookup: the term, folded, and the token it becomes.
PHRASES: Final[tuple[tuple[str, str], ...]] = (
    ("first name", "firstname"),
    ("given name", "givenname"),
    ("last name", "lastname"),
    ("family name", "familyname"),
    ("full name", "fullname"),
    ("krestni jmeno", "krestnijmeno"),
    ("cele jmeno", "celejmeno"),
    ("nom de famille", "nomdefamille"),
    ("nombre de pila", "nombredepila"),
    ("primeiro nome", "primeironome"),
    ("nome completo", "nomecompleto"),
    ("nombre completo", "nombrecompleto"),
    ("nom complet", "nomcomplet"),
    ("buy in", "buyin"),
    ("card no", "cardno"),
    ("card number", "cardnumber"),
    ("player id", "playerid"),
    ("member id", "memberid"),
    ("country code", "countrycode"),
    ("statni prislusnost", "statniprislusnost"),
    ("special needs", "specialneeds"),
    ("specialni potreby", "specialnipotreby"),
    ("zvlastni potreby", "zvlastnipotreby"),
    ("invalidni vozik", "invalidnivozik"),
    ("silla de ruedas", "silladeruedas"),
    ("cadeira de rodas", "cadeiraderodas"),
    ("fauteuil roulant", "fauteuilroulant"),
    ("sedia a rotelle", "sediaarotelle"),
    ("necesidades especiales", "necesidadesespeciales"),
    ("necessidades especiais", "necessidadesespeciais"),
    ("besoins particuliers", "besoinsparticuliers"),
    ("besoins speciaux", "besoinsspeciaux"),
    ("bisogni speciali", "bisognispeciali"),
    ("specjalne potrzeby", "specjalnepotrzeby"),
    ("mobilite reduite", "mobilitereduite"),
    ("movilidad reducida", "movilidadreducida"),
    ("mobilidade reduzida", "mobilidadereduzida"),
    ("mobilita ridotta", "mobilitaridotta"),
)

#: Words that join a header's terms ("Příjmení a jméno", "Nom et prénom", "Vor- und
#: Nachname"): neither a sign of a header nor of a name by themselves.
CONNECTORS: Final = words_of(
    "a and und et y e i o u or oder nebo lub albo ou of de del des di du der la le in w z"
)

#: A surname: "Příjmení", "Nachname", "Nazwisko", "Apellidos", "Cognome".
SURNAME: Final = words_of(
    """surname surnames lastname familyname prijmeni nachname familienname zuname nazwisko
    apellido apellidos sobrenome sobrenomes apelido apelidos nomdefamille cognome"""
)
#: A first name: "Vorname", "Prénom", "Imię", "First name"; "Vor-" of "Vor- und Nachname".
GIVEN: Final = words_of(
    """firstname givenname forename forenames krestnijmeno vorname vornamen vor imie prenom
    prenoms primeironome nombredepila"""
)
#: A name, which beside a first name is the surname ("Name, Vorname"; "Nom et prénom") and
#: beside a surname the first name ("Jméno a příjmení", "Nome e cognome").
GENERIC: Final = words_of(
    """name names fullname jmeno jmena celejmeno nombre nombres nombrecompleto nome nomes
    nomecompleto nom noms nomcomplet naam nominativo"""
)
#: The player, which names the name column: "Hráč", "Jméno hráče", "Spieler", "Joueur".
PLAYER: Final = words_of(
    """player players entrant entrants participant participants hrac hraci hrace hracu
    ucastnik ucastnici spieler spielerin spielername teilnehmer gracz gracze gracza zawodnik
    uczestnik jugador jugadores jugadora participante participantes jogador jogadores joueur
    joueurs joueuse giocatore giocatori partecipante concorrente nick nickname prezdivka
    spitzname pseudo pseudonyme apodo alcunha soprannome"""
)
#: A card or member number.
CARD: Final = words_of(
    """id ids playerid memberid card cardno cardnumber member membership karta cislo clenske
    registrace ausweis mitglied mitgliedsnummer kartennummer nummer nr numer legitymacja
    numero tarjeta socio cartao carte tessera licence license licencia licenza licencja"""
)
#: Where the player comes from.
COUNTRY: Final = words_of(
    """country countries countrycode nationality nation zeme stat statniprislusnost narodnost
    obcanstvi land staat nationalitat herkunft kraj panstwo narodowosc obywatelstwo pais
    nacionalidad nacionalidade pays nationalite paese nazione nazionalita"""
)
#: A special-needs seat: only these, said in so many words, make a column change seating.
SPECIAL_NEEDS: Final = words_of(
    """specialneeds wheelchair wheelchairs accessibility handicap disability
    specialnipotreby zvlastnipotreby vozik invalidnivozik bezbarierove rollstuhl barrierefrei
    behinderung wozek niepelnosprawnosc specjalnepotrzeby silladeruedas accesibilidad
    necesidadesespeciales movilidadreducida cadeiraderodas acessibilidade
    necessidadesespeciais mobilidadereduzida fauteuilroulant accessibilite
    besoinsparticuliers besoinsspeciaux mobilitereduite sediaarotelle accessibilita
    disabilita bisognispeciali mobilitaridotta"""
)
#: The staff's note.
NOTE: Final = words_of(
    """note notes comment comments remark remarks poznamka poznamky bemerkung bemerkungen
    notiz notizen kommentar anmerkung anmerkungen uwagi uwaga komentarz nota notas
    comentario comentarios observaciones observacoes observacao obs remarque remarques
    commentaire commentaires commento commenti osservazioni annotazioni"""
)
#: The language the player reads and hears (issue 29.3).
LANGUAGE: Final = words_of(
    """language languages lang lng jazyk jazyky sprache sprachen jezyk idioma idiomas lengua
    lingua langue linguaggio"""
)
#: Headers of columns the import does not use (a club, a payment, a phone): they name no
#: field, yet a cell of them is unlike a player's.
OTHER: Final = words_of(
    """club clubs klub kluby verein team tym druzyna equipo equipa clube equipe circolo
    squadra casino kasino home city mesto stadt miasto miejscowosc ciudad cidade ville citta
    paid payed payment zaplaceno zaplatil platba bezahlt zahlung oplacono oplata zaplacono
    pagado pagada pago pagamento paye payee paiement pagato buyin email mail phone telefon
    telefono telefone telephone cellulare seat table stul tisch stol tavolo chips stack
    zetony date datum fecha age vek alter wiek edad idade eta status stav entry entries vstup
    reentry rebuy addon bounty poradi rank platz miejsce puesto registered"""
)

HEADER_WORDS: Final = (
    SURNAME | GIVEN | GENERIC | PLAYER | CARD | COUNTRY | SPECIAL_NEEDS | NOTE | OTHER
)

#: What a yes/no cell says, in the eight languages and a few more a list may carry.
YES: Final = words_of("""1 yes y true ano a x ✓ ✔ * ja j tak t si sim s oui igen da""")
NO: Final = words_of("""0 no n false ne - – — nein nie nao non nem nu""")
#: Said for "none" in a special-needs column: not a need.
NONE: Final = words_of(
    """none nothing zadne nic keine kein brak zadnych ninguno ninguna nada nenhum nenhuma aucun
    aucune rien nessuno nessuna niente"""
)


def fold(text: str) -> str:
    """Lower case, no diacritics, runs of spaces one: how words are compared."""
    plain = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    return " ".join(plain.replace("_", " ").split()).strip(" :*#?")


_WORD = re.compile(r"[^\W_]+")


def tokens(text: str) -> list[str]:
    """The words of ``text`` folded, terms of ``PHRASES`` joined, connectors left out."""
    plain = " ".join(_WORD.findall(fold(text)))
    for phrase, token in PHRASES:
        if phrase in plain:
            plain = re.sub(rf"\b{phrase}\b", token, plain)
    return [w for w in plain.split() if w not in CONNECTORS]
