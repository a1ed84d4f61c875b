"""floor: live floor management for multi-table poker tournaments."""

from .engine.errors import install_templates
from .refusals import say

__version__ = "0.1.0"

# The engine's refusals are said in the screens' English templates (``floor.refusals``).
install_templates(say)
