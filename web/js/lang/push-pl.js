// Polski: powiadomienia (komunikaty service workera, web/sw.js), ich włączanie na ekranie gracza
// i w telefonie floora (push.js), sekcje dyrektora (sections.js).
//
// Czytany dwojako: jako moduł przez i18n.js i przez service worker przez importScripts (klasyczny
// skrypt), dlatego nic nie eksportuje i kładzie teksty na obiekt globalny.

// @ts-check
/** @type {any} */ (globalThis).floorPushTexts ||= {};
/** @type {any} */ (globalThis).floorPushTexts.pl = {
  "push.move_called.title": "Twoje miejsce: stół {table}, miejsce {seat}",
  "push.move_called.body": "{name}: floor wzywa cię do przesiadki. Zabierz żetony do stołu {table}, miejsce {seat}.",
  "push.move_called_again.title": "Nowe miejsce: stół {table}, miejsce {seat}",
  "push.move_called_again.body": "{name}: twoja przesiadka została wezwana ponownie, na inne miejsce: stół {table}, miejsce {seat}.",
  "push.table_breaking.title": "Twój stół {table} jest rozwiązywany",
  "push.table_breaking.body": "{name}: zostań na miejscu, dopóki floor nie wezwie cię na nowe miejsce.",
  "push.bag_time.title": "Spakuj żetony do worka",
  "push.bag_time.body": "{name}: dzień się skończył. Spakuj i oznacz żetony przy stole {table}.",
  "push.payout_ready.title": "Twoja wypłata jest gotowa",
  "push.payout_ready.body": "{name}: miejsce {place}, {prize}. Odbierz wypłatę w kasie.",
  "push.in_the_money.title": "Jesteś w strefie płatnej",
  "push.in_the_money.body": {
    "one": "{name}: bańka pękła. Płatne jest {n} miejsce, a ty na nim jesteś.",
    "few": "{name}: bańka pękła. Płatne są {n} miejsca, a ty jesteś wśród nich.",
    "many": "{name}: bańka pękła. Płatnych jest {n} miejsc, a ty jesteś wśród nich.",
    "other": "{name}: bańka pękła. Płatnych jest {n} miejsca, a ty jesteś wśród nich.",
  },
  "push.seat_ready.title": "Twoje miejsce jest gotowe",
  "push.seat_ready.body": "{name}: czeka na ciebie miejsce przy stole {table}, miejsce {seat}.",
  "push.staff.time_called.title": "Wezwanie czasu: stół {table}",
  "push.staff.time_called.body": "Miejsce {seat} przy stole {table} ma minutę na decyzję.",
  "push.staff.table_breaking.title": "Rozwiąż stół {table}",
  "push.staff.table_breaking.body": "Stół {table} w twojej sekcji jest rozwiązywany: wezwij jego graczy na nowe miejsca.",

  "push.optin": "Powiadamiaj mój telefon",
  "push.optin_hint": "Telefon zawibruje, gdy floor wezwie cię do przesiadki, gdy twój stół będzie rozwiązywany, przy pakowaniu żetonów i gdy twoja wypłata będzie gotowa, także przy zamkniętej stronie.",
  "push.on": "Powiadomienia są włączone",
  "push.stop": "Wyłącz powiadomienia",
  "push.stopped": "Powiadomienia są wyłączone. Ta strona nadal powiadamia, dopóki jest otwarta.",
  "push.denied": "Powiadomienia są zablokowane dla tej strony: zezwól na nie w ustawieniach przeglądarki i spróbuj ponownie.",
  "push.unsupported": "Ta przeglądarka nie powiadomi cię przy zamkniętej stronie: zostaw tę stronę otwartą.",
  "push.ios": "Na iPhonie lub iPadzie: dodaj tę stronę do ekranu początkowego (Udostępnij, Do ekranu początkowego; iOS 16.4 lub nowszy) i otwieraj ją stamtąd, aby dostawać powiadomienia.",
  "push.no_server": "Serwer tego lokalu nie wysyła powiadomień na telefon: zostaw tę stronę otwartą.",
  "push.insecure": "Powiadomienia wymagają bezpiecznego połączenia (https): zostaw tę stronę otwartą.",
  "push.full": "Pięć telefonów już dostaje te powiadomienia: najpierw wyłącz je na jednym z nich.",
  "push.too_many": "Za dużo prób z tej sieci: spróbuj ponownie za minutę.",
  "push.failed": "Nie udało się włączyć powiadomień: {error}",
  "push.staff_optin": "Powiadomienia dla mojej sekcji",
  "push.staff_hint_section": "Wezwania czasu i stoły do rozwiązania przy stołach {tables} docierają na ten telefon, także zablokowany.",
  "push.staff_hint_all": "Nie masz przypisanej sekcji: wezwania czasu i rozwiązania przy każdym stole, którego nikt inny nie ma, docierają na ten telefon.",

  "director.floorsections": "Sekcje floora",
  "sections.hint": "Stoły, którymi zajmuje się każdy floor: wezwanie czasu lub stół do rozwiązania powiadamia telefon tego floora.",
  "sections.tables_of": "Stoły: {name}",
  "sections.placeholder": "np. 1-10, 15",
  "sections.save": "Zapisz sekcje",
  "sections.saved": "Sekcje zapisane",
  "sections.bad": "Wpisz numery stołów i zakresy, np. 1-10, 15 ({name}).",
  "sections.none": "Brak jeszcze kont floora.",
};
