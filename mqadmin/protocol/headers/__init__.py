"""Every request header of the remoting protocol, declared once (see :mod:`.base`).

One module per family of request codes; the admin client, the name server, the broker and the
pipeline all import their headers from here.
"""
