"""The live server: HTTP commands, websocket fan-out, the clock, staff sign-in."""
