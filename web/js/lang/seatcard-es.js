// @ts-check
// Español: the digital seat card on the player's phone (seatcard.js) and its scan at the
// table (seatcard_scan.js).

export const seatcardEs = {
  "seatcard.show": "Mostrar mi tarjeta de asiento",
  "seatcard.hide": "Ocultar mi tarjeta de asiento",
  "seatcard.loading": "Cargando la tarjeta de asiento…",
  "seatcard.none": "Sin asiento no hay tarjeta de asiento.",
  "seatcard.error": "No se pudo cargar la tarjeta de asiento: {error}",
  "seatcard.label": "Tarjeta de asiento de {name}: mesa {table}, asiento {seat}",
  "seatcard.where": "Mesa {table} · Asiento {seat}",
  "seatcard.hint": "Muestra este código y tu documento al crupier. Vale para un escaneo; tras un cambio de asiento aparece aquí una tarjeta nueva.",
  "seatcard.scan": "Escanear una tarjeta de asiento",
  "seatcard.again": "Escanear otra tarjeta de asiento",
  "seatcard.starting": "Abriendo la cámara…",
  "seatcard.scanning": "Acerque la tarjeta de asiento del jugador a la cámara.",
  "seatcard.stop": "Cerrar la cámara",
  "seatcard.close": "Listo",
  "seatcard.no_camera": "No se pudo abrir la cámara: permítala para esta página o compruebe a mano el documento del jugador.",
  "seatcard.ok": "Tarjeta de asiento válida: mesa {table}, asiento {seat}",
  "seatcard.document": "{type} terminado en {last}",
  "seatcard.no_document": "Ningún documento registrado",
  "seatcard.compare": "Compare el nombre y el documento con la identificación del jugador.",
  "seatcard.used": "Ya escaneada a las {time}: una tarjeta de asiento vale para un escaneo.",
  "seatcard.by_hand": "Compruebe a mano el documento del jugador o llame al floor.",
  "seatcard.other_table": "Esta tarjeta es de la mesa {table}, asiento {seat}: el jugador pasa allí con su stack.",
  "seatcard.void": "Esta tarjeta no es válida: el asiento que indica ya no es de este jugador.",
  "seatcard.sits_now": "Asiento del jugador ahora: mesa {table}, asiento {seat}.",
  "seatcard.no_seat_now": "El jugador no tiene asiento ahora.",
};
