// @ts-check
// English: the director's messages to the room (announce_console.js, announce_screens.js).
export const announceEn = {
  "director.announce": "Announcements",
  "announce.title": "Announcement",
  "announce.line": "Message from the tournament director",
  "announce.text": "Message",
  "announce.text_hint": "Shown as typed on the wall and the player screens, up to 280 characters.",
  "announce.as_line": "Show as a line",
  "announce.as_screen": "Show full screen",
  "announce.clear": "Clear the message",
  "announce.shown_line": "Shown now as a line:",
  "announce.shown_screen": "Shown now full screen:",
  "announce.none": "No message is shown.",
  "announce.sent_line": "Message shown",
  "announce.sent_screen": "Announcement shown",
  "announce.cleared": "Message cleared",
};
