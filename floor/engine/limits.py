"""The per-field limits of a config Struct, also for one built directly in code.

msgspec checks ``Meta`` limits (seats 2 to 12, minutes above 0, ...) and literal values when
it decodes or converts, not when a Struct is built with its constructor: ``Rules(seats=40)``
was accepted. Config Structs call ``check_limits`` from ``__post_init__`` so that every way
of building one is held to the same limits. ``__post_init__`` cannot tell a decode from a
construction, so a decoded one is converted once more too: some microseconds for a rule set,
paid when a tournament is created or loaded, never per command.
"""

from __future__ import annotations

import msgspec

from .errors import ConfigValueError, refused

#: Set while ``check_limits`` converts: the Structs that conversion builds (this one and the
#: ones nested in it) are checked by it already.
_checking = False


def check_limits(obj: msgspec.Struct) -> None:
    """Raise ``ValueError`` naming the field when a field of ``obj`` is out of its limits."""
    global _checking
    if _checking:
        return
    _checking = True
    try:
        msgspec.convert(msgspec.to_builtins(obj), type(obj))
    except msgspec.ValidationError as e:
        if isinstance(e.__cause__, ConfigValueError):
            # A check of the Struct's own, run again by the conversion: its reason stands.
            raise e.__cause__ from None
        # msgspec's own sentence ("Expected `int` <= 12 - at `$.seats`") is all there is.
        raise refused(ConfigValueError, "out_of_limits", {"problem": str(e)}) from None
    finally:
        _checking = False
