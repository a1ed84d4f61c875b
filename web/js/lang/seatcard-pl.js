// @ts-check
// Polski: the digital seat card on the player's phone (seatcard.js) and its scan at the
// table (seatcard_scan.js).

export const seatcardPl = {
  "seatcard.show": "Pokaż moją kartę miejsca",
  "seatcard.hide": "Ukryj moją kartę miejsca",
  "seatcard.loading": "Wczytywanie karty miejsca…",
  "seatcard.none": "Bez miejsca nie ma karty miejsca.",
  "seatcard.error": "Nie udało się wczytać karty miejsca: {error}",
  "seatcard.label": "Karta miejsca gracza {name}: stół {table}, miejsce {seat}",
  "seatcard.where": "Stół {table} · Miejsce {seat}",
  "seatcard.hint": "Pokaż ten kod i dokument tożsamości krupierowi. Jest ważny na jedno skanowanie; po przesiadce pojawi się tu nowa karta miejsca.",
  "seatcard.scan": "Skanuj kartę miejsca",
  "seatcard.again": "Skanuj kolejną kartę miejsca",
  "seatcard.starting": "Otwieranie kamery…",
  "seatcard.scanning": "Przytrzymaj kartę miejsca gracza przed kamerą.",
  "seatcard.stop": "Zamknij kamerę",
  "seatcard.close": "Gotowe",
  "seatcard.no_camera": "Nie udało się otworzyć kamery: zezwól na nią tej stronie albo sprawdź dokument gracza ręcznie.",
  "seatcard.ok": "Karta miejsca ważna: stół {table}, miejsce {seat}",
  "seatcard.document": "{type} kończący się na {last}",
  "seatcard.no_document": "Brak dokumentu w rejestrze",
  "seatcard.compare": "Porównaj imię i nazwisko oraz dokument z dowodem gracza.",
  "seatcard.used": "Zeskanowana już o {time}: karta miejsca jest ważna na jedno skanowanie.",
  "seatcard.by_hand": "Sprawdź dokument gracza ręcznie albo wezwij floor.",
  "seatcard.other_table": "Ta karta miejsca jest na stół {table}, miejsce {seat}: gracz przesiada się tam ze swoim stackiem.",
  "seatcard.void": "Ta karta miejsca jest nieważna: to miejsce nie należy już do tego gracza.",
  "seatcard.sits_now": "Miejsce gracza teraz: stół {table}, miejsce {seat}.",
  "seatcard.no_seat_now": "Gracz nie ma teraz miejsca.",
};
