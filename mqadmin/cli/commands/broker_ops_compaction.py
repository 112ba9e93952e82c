"""dumpCompactionLog: the records of a compaction log file (a compacted topic's commit-log file, same
record format), printed as Java's ``MessageExt.toString()`` one per line, bodies not read.

As the Java tool: records are read from the start until one whose size is negative or larger than
the file, or that does not decode (the zero-filled tail, the end-of-file filler). Unlike it, the
file is opened read-only (Java maps it read-write), records are read one at a time (a file of any
size, no memory map to fault on a truncated file), and a missing ``-f``, a missing file or a
directory is one line on stderr with a non-zero exit code.
"""

from __future__ import annotations

import os
import struct
from typing import Any

from mqadmin.cli.command import Invocation, java_command
from mqadmin.cli.errors import CommandError
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.javaopts import JavaOpt

_SIZE = struct.Struct(">i")


@java_command(
    "dumpCompactionLog",
    [JavaOpt("f", "file", "to dump file name")],
    json_doc='{"file": str, "messages": [message without "body"] (as queryMsgById --json)}',
)
async def dump_compaction_log(inv: Invocation, file: str | None) -> None:
    from mqadmin.cli.commands.message_text import message_json, message_string
    from mqadmin.protocol.errors import ProtocolError
    from mqadmin.protocol.message_record import decode_message

    if file is None:
        raise CommandError("miss dump log file name", ExitCode.USAGE)
    if "\0" in file:
        raise CommandError("-f is not a usable path (it holds a NUL)", ExitCode.USAGE)
    if not os.path.lexists(file):
        raise CommandError(f"file {file} not exist.", ExitCode.NOT_FOUND)
    if os.path.isdir(file):
        raise CommandError(f"file {file} is a directory.", ExitCode.USAGE)
    try:
        fd = os.open(file, os.O_RDONLY)
    except OSError as e:
        raise CommandError(f"cannot read {file}: {e.strerror or e}") from None
    messages: list[dict[str, Any]] = []
    try:
        size_of_file = os.fstat(fd).st_size
        pos = 0
        while pos < size_of_file:
            head = os.pread(fd, 4, pos)
            if len(head) < 4:
                break
            (size,) = _SIZE.unpack(head)
            if size > size_of_file or size <= 0:
                break
            record = os.pread(fd, size, pos)
            if len(record) < size:
                break
            try:
                msg, _ = decode_message(record, 0, read_body=False, decompress=False)
            except ProtocolError:
                break
            pos += size
            if inv.out.structured:
                messages.append(message_json(msg, codec=None))
            else:
                inv.out.text(message_string(msg, with_body=False) + "\n")
    except OSError as e:
        raise CommandError(f"cannot read {file}: {e.strerror or e}") from None
    finally:
        os.close(fd)
    if inv.out.structured:
        inv.out.data({"file": file, "messages": messages})
