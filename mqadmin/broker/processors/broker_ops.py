"""The 5.x broker operations a single node answers, served when the broker behaves as 5.3.3.

- SET_MESSAGE_REQUEST_MODE (401): a group's consume mode on a topic, checked and kept as Java's
  ``QueryAssignmentProcessor`` does (retry topics refused, topic and group must exist, the group
  auto-created when the broker allows it); GET_ALL_MESSAGE_REQUEST_MODE (402) reads the table back.
- POP_ROLLBACK (200056, ``exportPopRecord``): a 5.3.3 broker moves the pop records of its KV pop
  store into checkpoint messages; without ``popConsumerKVServiceInit`` (its default, and this
  broker keeps no pop records) it has nothing to move and answers success with the remark Java
  leaves on it.
- RESET_MASTER_FLUSH_OFFSET (908): a slave records its master's flush point in the checkpoint; a
  master (id 0) ignores the request and succeeds, as in Java.
- SET_COMMITLOG_READ_MODE (2004): ``dataReadAheadEnable`` (shown by GET_BROKER_CONFIG) and the
  read-ahead advice on every commit-log file (``posix_fadvise`` NORMAL or RANDOM, Java's
  ``madvise``), with Java's remarks for each failure.
- CHECK_ROCKSDB_CQ_WRITE_PROGRESS (354) and EXPORT_ROCKSDB_CONFIG_TO_JSON (355): this store is not
  RocksDB and does not double-write consume queues, so, as a 5.3.3 broker with the default store,
  the check is "in progress" (its result, "not ok", only goes to the log) and the export does nothing
  and says ``export done.``

ADD_BROKER (902) and REMOVE_BROKER (903) stay unregistered: only a broker container has them, so
this broker answers them as a Java broker does, REQUEST_CODE_NOT_SUPPORTED.
"""

from __future__ import annotations

import logging
import os

from mqadmin.broker.config import BrokerSettings, Configuration
from mqadmin.broker.groups import GroupManager
from mqadmin.broker.request_modes import RequestModeManager
from mqadmin.broker.store import MessageStore
from mqadmin.broker.topics import TopicManager
from mqadmin.broker.version import BrokerVersion
from mqadmin.broker.wire import NOT_SET_REMARK, answer
from mqadmin.protocol import names
from mqadmin.protocol.bodies.request_mode import (
    CHECK_IN_PROGRESS,
    CheckRocksdbCqWriteResult,
    SetMessageRequestModeRequestBody,
)
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.base import HeaderError
from mqadmin.protocol.headers.broker_ops import (
    MADV_NORMAL,
    MADV_RANDOM,
    CheckRocksdbCqWriteProgressRequestHeader,
    CommitLogReadAheadHeader,
    ExportRocksDBConfigToJsonRequestHeader,
    ResetMasterFlushOffsetHeader,
)
from mqadmin.remoting.client import Connection, Handler
from mqadmin.remoting.logthrottle import ThrottledLog

__all__ = ["READ_AHEAD_KEY", "BrokerOpsProcessor"]

log = logging.getLogger("mqadmin.broker")
_peer_log = ThrottledLog(log)

READ_AHEAD_KEY = "dataReadAheadEnable"
"""The 5.3.3 ``MessageStoreConfig`` setting SET_COMMITLOG_READ_MODE changes (default true)."""

_ROCKSDB_CQ_OFF = "rocksdbCQWriteEnable is false, checkRocksdbCqWriteProgressCommand is invalid"


class BrokerOpsProcessor:
    """Codes 401, 402, 200056, 908, 2004, 354 and 355 (none when the broker behaves as 4.9.8)."""

    def __init__(
        self,
        *,
        settings: BrokerSettings,
        configuration: Configuration,
        version: BrokerVersion,
        topics: TopicManager,
        groups: GroupManager,
        store: MessageStore,
    ) -> None:
        self.settings = settings
        self.configuration = configuration
        self.version = version
        self.topics = topics
        self.groups = groups
        self.store = store
        self.modes = RequestModeManager(settings.store.config_dir)
        if version.five_x:
            self.modes.load()
            cfg = configuration
            if READ_AHEAD_KEY not in cfg.all_configs:
                cfg.show(READ_AHEAD_KEY, "true")

    def handlers(self) -> dict[int, Handler]:
        if not self.version.five_x:
            return {}
        return {
            RequestCode.SET_MESSAGE_REQUEST_MODE: self.set_request_mode,
            RequestCode.GET_ALL_MESSAGE_REQUEST_MODE: self.all_request_modes,
            RequestCode.POP_ROLLBACK: self.export_pop_records,
            RequestCode.RESET_MASTER_FLUSH_OFFSET: self.reset_master_flush_offset,
            RequestCode.SET_COMMITLOG_READ_MODE: self.set_read_ahead,
            RequestCode.CHECK_ROCKSDB_CQ_WRITE_PROGRESS: self.check_rocksdb_cq,
            RequestCode.EXPORT_ROCKSDB_CONFIG_TO_JSON: self.export_rocksdb_config,
        }

    # ------------------------------------------------------------------------------ consume modes

    def set_request_mode(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        try:
            body = SetMessageRequestModeRequestBody.decode(cmd.body or b"")
        except ProtocolError as e:
            return answer(cmd, ResponseCode.SYSTEM_ERROR, f"SetMessageRequestModeRequestBody: {e}")
        topic, group = body.topic, body.consumer_group
        if topic is None or group is None:
            what = "topic" if topic is None else "consumerGroup"
            return answer(cmd, ResponseCode.SYSTEM_ERROR, f"java.lang.NullPointerException: no {what}")
        if topic.startswith(names.RETRY_GROUP_TOPIC_PREFIX):
            return answer(cmd, ResponseCode.NO_PERMISSION, "retry topic is not allowed to set mode")
        if self.topics.get(topic) is None:
            return answer(cmd, ResponseCode.TOPIC_NOT_EXIST, f"topic[{topic}] not exist")
        if self.groups.find(group) is None:
            return answer(cmd, ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, "subscription group does not exist")
        _peer_log.log(
            logging.INFO, "consume mode", "consume mode of %r on %r set to %s (popShareQueueNum %d) by %s",
            group, topic, body.mode, body.pop_share_queue_num, conn.remote_addr,
        )  # fmt: skip
        self.modes.set(topic, group, body)
        return answer(cmd, ResponseCode.SUCCESS)

    def all_request_modes(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        return answer(cmd, ResponseCode.SUCCESS, None, None, self.modes.encode())

    # ------------------------------------------------------------------------------ pop records

    def export_pop_records(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        _peer_log.log(
            logging.INFO,
            "pop export",
            "pop record export asked by %s: no KV pop store, nothing to move",
            conn.remote_addr,
        )
        return answer(cmd, ResponseCode.SUCCESS, NOT_SET_REMARK)

    # ------------------------------------------------------------------------------ store settings

    def reset_master_flush_offset(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        if self.settings.broker.broker_id != 0:
            hdr = ResetMasterFlushOffsetHeader.decode(cmd.ext_fields)
            _peer_log.log(
                logging.INFO,
                "master flush offset",
                "master flushed offset set to %d by %s",
                hdr.master_flush_offset,
                conn.remote_addr,
            )
            self.store.set_master_flushed_offset(hdr.master_flush_offset)
        return answer(cmd, ResponseCode.SUCCESS)

    def set_read_ahead(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        _peer_log.log(
            logging.INFO, "read ahead call", "setCommitLogReadaheadMode called by %s", conn.remote_addr
        )
        if cmd.ext_fields is None:
            return answer(cmd, ResponseCode.SYSTEM_ERROR, "set commitlog readahead mode param error")
        try:
            mode = CommitLogReadAheadHeader.decode(cmd.ext_fields).read_ahead_mode
        except HeaderError as e:
            _peer_log.warning("read ahead", "set commitlog readahead mode failed: %s", e.remark)
            return answer(cmd, ResponseCode.SYSTEM_ERROR, "set commitlog readahead mode failed")
        if mode not in (MADV_NORMAL, MADV_RANDOM):
            remark = "set commitlog readahead mode param value error"
            return answer(cmd, ResponseCode.INVALID_PARAMETER, remark)
        self.configuration.show(READ_AHEAD_KEY, "true" if mode == MADV_NORMAL else "false")
        try:
            self._advise_commitlog(mode)
        except OSError as e:
            _peer_log.error("read ahead", "set commitlog readahead mode failed: %s", e)
            return answer(cmd, ResponseCode.SYSTEM_ERROR, "set commitlog readahead mode failed")
        return answer(cmd, ResponseCode.SUCCESS, f"set commitlog readahead mode success, mode: {mode}")

    def _advise_commitlog(self, mode: int) -> None:
        """``scanFileAndSetReadMode``: the read-ahead advice on every commit-log file."""
        advise = getattr(os, "posix_fadvise", None)
        if advise is None:  # not on this platform: the setting alone is what changes
            return
        advice = os.POSIX_FADV_NORMAL if mode == MADV_NORMAL else os.POSIX_FADV_RANDOM
        for seg in list(self.store.commitlog.queue.segments):
            advise(seg.fd, 0, 0, advice)

    # ------------------------------------------------------------------------------ RocksDB

    def check_rocksdb_cq(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        hdr = CheckRocksdbCqWriteProgressRequestHeader.decode(cmd.ext_fields)
        _peer_log.log(
            logging.INFO, "rocksdb cq check", "checkRocksdbCqWriteProgress (topic %r) result: %s",
            hdr.topic, CheckRocksdbCqWriteResult(1, _ROCKSDB_CQ_OFF).encode().decode(),
        )  # fmt: skip
        body = CheckRocksdbCqWriteResult(CHECK_IN_PROGRESS).encode()
        return answer(cmd, ResponseCode.SUCCESS, None, None, body)

    def export_rocksdb_config(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        ExportRocksDBConfigToJsonRequestHeader.decode(cmd.ext_fields)
        return answer(cmd, ResponseCode.SUCCESS, "export done.")
