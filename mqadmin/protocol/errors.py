"""The one error type every decoder in :mod:`mqadmin.protocol` raises on bad input."""


class ProtocolError(ValueError):
    """Malformed or unsupported wire data (frame, header, body or message)."""
