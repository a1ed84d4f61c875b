"""floor: live floor management for multi-table poker tournaments."""

__version__ = "0.1.0"
