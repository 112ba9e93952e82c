"""The bundled name server: request processors, KV store, config and process, over :mod:`mqadmin.route`."""
