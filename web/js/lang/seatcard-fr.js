// @ts-check
// Français: the digital seat card on the player's phone (seatcard.js) and its scan at the
// table (seatcard_scan.js).

export const seatcardFr = {
  "seatcard.show": "Afficher ma carte de place",
  "seatcard.hide": "Masquer ma carte de place",
  "seatcard.loading": "Chargement de la carte de place…",
  "seatcard.none": "Pas de carte de place sans place.",
  "seatcard.error": "La carte de place n'a pas pu être chargée : {error}",
  "seatcard.label": "Carte de place de {name} : table {table}, place {seat}",
  "seatcard.where": "Table {table} · Place {seat}",
  "seatcard.hint": "Montrez ce code et votre pièce d'identité au croupier. Il vaut pour un seul scan ; après un changement de place, une nouvelle carte apparaît ici.",
  "seatcard.scan": "Scanner une carte de place",
  "seatcard.again": "Scanner une autre carte de place",
  "seatcard.starting": "Ouverture de la caméra…",
  "seatcard.scanning": "Présentez la carte de place du joueur à la caméra.",
  "seatcard.stop": "Fermer la caméra",
  "seatcard.close": "Terminé",
  "seatcard.no_camera": "La caméra n'a pas pu être ouverte : autorisez-la pour cette page, ou vérifiez à la main la pièce d'identité du joueur.",
  "seatcard.ok": "Carte de place valide : table {table}, place {seat}",
  "seatcard.document": "{type} se terminant par {last}",
  "seatcard.no_document": "Aucun document enregistré",
  "seatcard.compare": "Comparez le nom et le document avec la pièce d'identité du joueur.",
  "seatcard.used": "Déjà scannée à {time} : une carte de place vaut pour un seul scan.",
  "seatcard.by_hand": "Vérifiez à la main la pièce d'identité du joueur, ou appelez le floor.",
  "seatcard.other_table": "Cette carte est pour la table {table}, place {seat} : le joueur y va avec son stack.",
  "seatcard.void": "Cette carte est nulle : la place qu'elle indique n'est plus celle de ce joueur.",
  "seatcard.sits_now": "Place du joueur maintenant : table {table}, place {seat}.",
  "seatcard.no_seat_now": "Le joueur n'a plus de place.",
};
