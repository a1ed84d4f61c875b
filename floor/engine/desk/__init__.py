"""The front desk: registration and buy-in at desks, identity kept apart from the log, the
exclusion check, the shift's takings, the cashier's payouts (issue 28).

Pure, like the rest of the engine: the server keeps the records (``floor.redisdb.desk``)
and asks these modules what they mean. Nothing here enters a tournament's event log but the
registration itself (``commands.Register``, sent through the usual path): the identity, the
money and the checks live in keys of the house's slot (``floor:{@house}:desk:*``).
"""
