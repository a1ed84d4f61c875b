// Français : notifications (alertes du service worker, web/sw.js) et leur activation sur l'écran
// des joueurs et le téléphone du floor (push.js), les sections du directeur (sections.js).
//
// Lu deux fois : i18n.js l'importe comme module et le service worker avec importScripts (script
// classique), donc il n'exporte rien et pose ses textes sur l'objet global.

// @ts-check
/** @type {any} */ (globalThis).floorPushTexts ||= {};
/** @type {any} */ (globalThis).floorPushTexts.fr = {
  "push.move_called.title": "Votre place : table {table}, siège {seat}",
  "push.move_called.body": "{name} : le floor appelle votre déplacement. Emportez vos jetons à la table {table}, siège {seat}.",
  "push.move_called_again.title": "Nouvelle place : table {table}, siège {seat}",
  "push.move_called_again.body": "{name} : votre déplacement a été rappelé, vers un autre siège : table {table}, siège {seat}.",
  "push.table_breaking.title": "Votre table {table} casse",
  "push.table_breaking.body": "{name} : restez assis jusqu'à ce que le floor appelle votre nouvelle place.",
  "push.bag_time.title": "Mettez vos jetons en sac",
  "push.bag_time.body": "{name} : la journée est finie. Mettez vos jetons en sac et notez-les à la table {table}.",
  "push.payout_ready.title": "Votre gain est prêt",
  "push.payout_ready.body": "{name} : place {place}, {prize}. Retirez-le à la caisse.",
  "push.in_the_money.title": "Vous êtes dans l'argent",
  "push.in_the_money.body": {
    "one": "{name} : la bulle a éclaté. {n} place est payée, et c'est la vôtre.",
    "many": "{name} : la bulle a éclaté. {n} places sont payées, et vous en êtes.",
    "other": "{name} : la bulle a éclaté. {n} places sont payées, et vous en êtes.",
  },
  "push.seat_ready.title": "Votre siège est prêt",
  "push.seat_ready.body": "{name} : un siège vous attend à la table {table}, siège {seat}.",
  "push.staff.time_called.title": "Temps demandé : table {table}",
  "push.staff.time_called.body": "Le siège {seat} de la table {table} a une minute pour jouer.",
  "push.staff.table_breaking.title": "Casser la table {table}",
  "push.staff.table_breaking.body": "La table {table} de votre section casse : appelez les nouvelles places de ses joueurs.",

  "push.optin": "Alerter mon téléphone",
  "push.optin_hint": "Votre téléphone vibre quand le floor appelle votre déplacement, quand votre table casse, à la mise en sac et quand votre gain est prêt, même page fermée.",
  "push.on": "Les alertes du téléphone sont activées",
  "push.stop": "Arrêter les alertes",
  "push.stopped": "Les alertes du téléphone sont désactivées. Cette page vous alerte quand même tant qu'elle est ouverte.",
  "push.denied": "Les notifications sont bloquées pour ce site : autorisez-les dans les réglages du navigateur, puis réessayez.",
  "push.unsupported": "Ce navigateur ne peut pas vous alerter page fermée : gardez cette page ouverte pour les alertes.",
  "push.ios": "Sur iPhone ou iPad : ajoutez cette page à l'écran d'accueil (Partager, Sur l'écran d'accueil ; iOS 16.4 ou plus récent) et ouvrez-la de là pour recevoir les alertes.",
  "push.no_server": "Le serveur de cette salle n'envoie pas d'alertes aux téléphones : gardez cette page ouverte pour les alertes.",
  "push.insecure": "Les alertes du téléphone demandent une connexion sécurisée (https) : gardez cette page ouverte pour les alertes.",
  "push.full": "Cinq téléphones reçoivent déjà ces alertes : arrêtez-les d'abord sur l'un d'eux.",
  "push.too_many": "Trop d'essais depuis ce réseau : réessayez dans une minute.",
  "push.failed": "Les alertes n'ont pas pu être activées : {error}",
  "push.staff_optin": "Alertes pour ma section",
  "push.staff_hint_section": "Les appels du temps et les tables à casser aux tables {tables} arrivent sur ce téléphone, même verrouillé.",
  "push.staff_hint_all": "Aucune section ne vous est attribuée : les appels du temps et les cassages à toutes les tables qui ne sont à personne d'autre arrivent sur ce téléphone.",

  "director.floorsections": "Sections du floor",
  "sections.hint": "Les tables dont s'occupe chaque floor : un appel du temps ou une table à casser y alerte le téléphone de ce floor.",
  "sections.tables_of": "Tables de {name}",
  "sections.placeholder": "p. ex. 1-10, 15",
  "sections.save": "Enregistrer les sections",
  "sections.saved": "Sections enregistrées",
  "sections.bad": "Écrivez des numéros de table et des plages, comme 1-10, 15 ({name}).",
  "sections.none": "Pas encore de compte floor.",
};
