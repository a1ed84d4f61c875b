"""Storage: the tournament state in Redis (or the embedded Valkey server floor starts itself)."""
