"""The command service and the ports it stores through: load, authorize, decide, write, retry.

``service`` decides and writes; ``ports`` says what a storage must do (the event log, the
bus, the clock lease; ``accounts_port`` for staff); ``memory`` does it in memory for fast
tests. The Redis/Valkey implementation is ``floor.redisdb``. Nothing here imports redis.
"""
