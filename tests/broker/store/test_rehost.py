"""The store host a broker learns after binding a port picked at run time: set before start, fixed after."""

from __future__ import annotations

from pathlib import Path

import pytest

from mqadmin.broker.store import MessageStore, StoreError
from mqadmin.protocol.message_record import decode_messages
from tests.broker.store.support import make_msg, small_config


def test_a_store_rehosted_before_start_stamps_the_new_host(tmp_path: Path) -> None:
    store = MessageStore(small_config(tmp_path / "store"), "127.0.0.1", 0)
    store.rehost("10.1.2.3", 40123)
    store.start()
    try:
        result = store.put_message(make_msg("T", 0, b"x"))
        assert result.msg_id.startswith("0A010203" + "00009CBB")  # 10.1.2.3, port 40123
        (msg,) = decode_messages(store.look_message(result.commit_log_offset) or b"")
        assert (msg.store_host, msg.store_port) == ("10.1.2.3", 40123)
    finally:
        store.shutdown()


def test_a_running_store_keeps_its_host(tmp_path: Path) -> None:
    store = MessageStore(small_config(tmp_path / "store"), "127.0.0.1", 10911)
    store.start()
    try:
        with pytest.raises(StoreError):
            store.rehost("10.9.9.9", 1)
        assert store.put_message(make_msg("T", 0, b"x")).msg_id.startswith("7F000001" + "00002A9F")
    finally:
        store.shutdown()
