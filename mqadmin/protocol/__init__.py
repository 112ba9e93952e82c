"""Sans-IO RocketMQ remoting protocol: frames, headers, codes, fastjson bodies, messages.

Nothing here does I/O or imports asyncio: bytes in, objects out, and back.
"""
