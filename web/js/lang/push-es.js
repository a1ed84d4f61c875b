// Español: las notificaciones (los avisos del service worker, web/sw.js), su activación en la
// pantalla del jugador y en el teléfono del floor (push.js), las secciones del director
// (sections.js).
//
// Se lee de dos maneras: i18n.js lo importa como módulo y el service worker con importScripts
// (un script clásico), así que no exporta nada y deja sus textos en el objeto global.

// @ts-check
/** @type {any} */ (globalThis).floorPushTexts ||= {};
/** @type {any} */ (globalThis).floorPushTexts.es = {
  "push.move_called.title": "Tu asiento: mesa {table}, asiento {seat}",
  "push.move_called.body": "{name}: el floor llama tu cambio. Lleva tus fichas a la mesa {table}, asiento {seat}.",
  "push.move_called_again.title": "Asiento nuevo: mesa {table}, asiento {seat}",
  "push.move_called_again.body": "{name}: tu cambio se ha vuelto a llamar, a otro asiento: mesa {table}, asiento {seat}.",
  "push.table_breaking.title": "Tu mesa {table} se rompe",
  "push.table_breaking.body": "{name}: quédate sentado hasta que el floor llame tu nuevo asiento.",
  "push.bag_time.title": "Embolsa tus fichas",
  "push.bag_time.body": "{name}: el día ha terminado. Embolsa y etiqueta tus fichas en la mesa {table}.",
  "push.payout_ready.title": "Tu premio está listo",
  "push.payout_ready.body": "{name}: puesto {place}, {prize}. Recógelo en caja.",
  "push.in_the_money.title": "Estás en premios",
  "push.in_the_money.body": {
    "one": "{name}: ha estallado la burbuja. Se paga {n} puesto y estás dentro.",
    "other": "{name}: ha estallado la burbuja. Se pagan {n} puestos y estás dentro.",
  },
  "push.seat_ready.title": "Tu asiento está listo",
  "push.seat_ready.body": "{name}: tienes un asiento listo en la mesa {table}, asiento {seat}.",
  "push.staff.time_called.title": "Tiempo pedido: mesa {table}",
  "push.staff.time_called.body": "El asiento {seat} de la mesa {table} tiene un minuto para actuar.",
  "push.staff.table_breaking.title": "Romper la mesa {table}",
  "push.staff.table_breaking.body": "La mesa {table} de tu sección se rompe: llama los nuevos asientos de sus jugadores.",

  "push.optin": "Avisar a mi teléfono",
  "push.optin_hint": "Tu teléfono vibra cuando el floor llama tu cambio, cuando se rompe tu mesa, a la hora de embolsar y cuando tu premio está listo, también con esta página cerrada.",
  "push.on": "Los avisos al teléfono están activados",
  "push.stop": "Dejar de avisar",
  "push.stopped": "Los avisos al teléfono están desactivados. Esta página sigue avisando mientras esté abierta.",
  "push.denied": "Las notificaciones están bloqueadas para este sitio: permítelas en los ajustes del navegador y vuelve a intentarlo.",
  "push.unsupported": "Este navegador no puede avisarte con la página cerrada: deja esta página abierta para los avisos.",
  "push.ios": "En un iPhone o iPad: añade esta página a la pantalla de inicio (Compartir, Añadir a pantalla de inicio; iOS 16.4 o posterior) y ábrela desde allí para recibir avisos.",
  "push.no_server": "El servidor de este local no envía avisos al teléfono: deja esta página abierta para los avisos.",
  "push.insecure": "Los avisos al teléfono necesitan una conexión segura (https): deja esta página abierta para los avisos.",
  "push.full": "Ya hay cinco teléfonos recibiendo estos avisos: desactívalos primero en uno de ellos.",
  "push.too_many": "Demasiados intentos desde esta red: vuelve a intentarlo en un minuto.",
  "push.failed": "No se pudieron activar los avisos: {error}",
  "push.staff_optin": "Avisos de mi sección",
  "push.staff_hint_section": "Las peticiones de tiempo y las mesas que hay que romper en las mesas {tables} llegan a este teléfono, también bloqueado.",
  "push.staff_hint_all": "No tienes sección asignada: las peticiones de tiempo y las roturas en cualquier mesa que no tenga nadie más llegan a este teléfono.",

  "director.floorsections": "Secciones del floor",
  "sections.hint": "Las mesas que lleva cada floor: una petición de tiempo o una mesa que romper allí avisa al teléfono de ese floor.",
  "sections.tables_of": "Mesas de {name}",
  "sections.placeholder": "p. ej. 1-10, 15",
  "sections.save": "Guardar las secciones",
  "sections.saved": "Secciones guardadas",
  "sections.bad": "Escribe números de mesa y rangos, como 1-10, 15 ({name}).",
  "sections.none": "Aún no hay cuentas de floor.",
};
