"""Asyncio transport: remoting client and server on top of the sans-IO protocol."""
