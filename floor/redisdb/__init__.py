"""Redis/Valkey: the implementation of every port of ``floor.store``, and every Redis call of
the project (the log and its append script, the bus, the clock lease, accounts and sessions,
backups, the embedded server)."""
