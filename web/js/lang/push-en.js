// English: notifications (the service worker's alerts, web/sw.js) and the opt-ins of the
// player screen and the floor phone (push.js), the director's sections (sections.js).
//
// Read two ways: imported by i18n.js as a module, and by the service worker with
// importScripts (a classic script: not every browser runs module service workers). So it
// exports nothing and puts its texts on the global object.

// @ts-check
/** @type {any} */ (globalThis).floorPushTexts ||= {};
/** @type {any} */ (globalThis).floorPushTexts.en = {
  "push.move_called.title": "Your seat: table {table}, seat {seat}",
  "push.move_called.body": "{name}: the floor calls your move. Take your chips to table {table}, seat {seat}.",
  "push.move_called_again.title": "New seat: table {table}, seat {seat}",
  "push.move_called_again.body": "{name}: your move was called again, to another seat: table {table}, seat {seat}.",
  "push.table_breaking.title": "Your table {table} is breaking",
  "push.table_breaking.body": "{name}: stay seated until the floor calls your new seat.",
  "push.bag_time.title": "Bag your chips",
  "push.bag_time.body": "{name}: the day is over. Bag and tag your chips at table {table}.",
  "push.payout_ready.title": "Your payout is ready",
  "push.payout_ready.body": "{name}: place {place}, {prize}. Collect it at the cage.",
  "push.in_the_money.title": "You are in the money",
  "push.in_the_money.body": {
    "one": "{name}: the bubble burst. {n} place is paid, and you are in it.",
    "other": "{name}: the bubble burst. {n} places are paid, and you are in them.",
  },
  "push.seat_ready.title": "Your seat is ready",
  "push.seat_ready.body": "{name}: a seat is ready for you at table {table}, seat {seat}.",
  "push.staff.time_called.title": "Time called: table {table}",
  "push.staff.time_called.body": "Seat {seat} at table {table} has a minute to act.",
  "push.staff.table_breaking.title": "Break table {table}",
  "push.staff.table_breaking.body": "Table {table} in your section is breaking: call its players' new seats.",

  "push.optin": "Alert my phone",
  "push.optin_hint": "Your phone buzzes when the floor calls your move, when your table breaks, at bag time and when your payout is ready, with this page closed too.",
  "push.on": "Phone alerts are on",
  "push.stop": "Stop alerts",
  "push.stopped": "Phone alerts are off. This page still alerts you while it is open.",
  "push.denied": "Notifications are blocked for this site: allow them in the browser's settings, then try again.",
  "push.unsupported": "This browser cannot alert you with the page closed: keep this page open for the alerts.",
  "push.ios": "On an iPhone or iPad: add this page to the Home Screen (Share, Add to Home Screen; iOS 16.4 or later) and open it from there to get alerts.",
  "push.no_server": "This venue's server sends no phone alerts: keep this page open for the alerts.",
  "push.insecure": "Phone alerts need a secure connection (https): keep this page open for the alerts.",
  "push.full": "Five phones already get these alerts: stop them on one of them first.",
  "push.too_many": "Too many tries from this network: try again in a minute.",
  "push.failed": "Alerts could not be turned on: {error}",
  "push.staff_optin": "Alerts for my section",
  "push.staff_hint_section": "Time calls and tables to break at tables {tables} reach this phone, also locked.",
  "push.staff_hint_all": "No section is set for you: time calls and breaks at every table nobody else has reach this phone.",

  "director.floorsections": "Floor sections",
  "sections.hint": "The tables each floorperson looks after: a time call or a table to break there alerts that floorperson's phone.",
  "sections.tables_of": "Tables of {name}",
  "sections.placeholder": "e.g. 1-10, 15",
  "sections.save": "Save sections",
  "sections.saved": "Sections saved",
  "sections.bad": "Write table numbers and ranges, such as 1-10, 15 ({name}).",
  "sections.none": "No floor staff accounts yet.",
};
