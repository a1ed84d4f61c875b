"""The calculators: pure functions of their inputs (a chip race, pots, a payout curve), no state."""
