"""The bundled name server process."""
