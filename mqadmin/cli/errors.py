"""Failures as one line on stderr (and a JSON object with ``--json``), with the exit code they map to.

A line says what failed, where (the address), and when it helps, what to do about it. ``--debug``
adds the traceback.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from mqadmin.admin.errors import (
    AdminError,
    DeadlineError,
    NameServersUnavailableError,
    RemoteCommandError,
    RemotingConnectError,
    RemotingError,
    RemotingTimeoutError,
)
from mqadmin.admin.settings import AdminSettings
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.base import HeaderError
from mqadmin.remoting.blocking import parse_addr
from mqadmin.remoting.diagnose import Kind, identify

__all__ = [
    "NOT_FOUND_CODES",
    "CommandError",
    "ErrorReport",
    "PartialFailure",
    "SettingsError",
    "describe",
    "malformed_addr",
    "wrong_port",
]

NOT_FOUND_CODES = frozenset(
    {
        ResponseCode.TOPIC_NOT_EXIST,
        ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST,
        ResponseCode.QUERY_NOT_FOUND,
    }
)
"""Answers meaning "no such topic, group or message": exit code NOT_FOUND whatever the command."""

_NOT_EXIST_REMARKS = re.compile(r"(?i)consumer group <[^>]*> not exist|can not find message by the offset")
"""SYSTEM_ERROR remarks (Java's) that mean "no such group" (a reset of a group the broker has no
offsets of) or "no such message" (an offset id past what the broker wrote)."""


_AUTH_NOT_EXIST = re.compile(r"(?i)^The (user|subject|acl)\b.* is not exist")
"""ACL 2.0 remarks (NO_PERMISSION, Java's words) to a deletion that mean "no such user or ACL", not
"no right" (a create or update naming an unknown user stays a refusal, exit 3)."""


def _not_found(exc: RemoteCommandError) -> bool:
    if exc.code in NOT_FOUND_CODES:
        return True
    remark = exc.remark or ""
    req = exc.request_code
    if exc.code == ResponseCode.NO_PERMISSION and req in (
        RequestCode.AUTH_DELETE_USER,
        RequestCode.AUTH_DELETE_ACL,
    ):
        return bool(_AUTH_NOT_EXIST.search(remark))
    return exc.code == ResponseCode.SYSTEM_ERROR and bool(_NOT_EXIST_REMARKS.search(remark))


_FAQ = re.compile(
    r"\s*(See|For more information, please visit the url,)\s+https?://\S+(\s+for further details\.)?\s*$"
)


class SettingsError(Exception):
    """Connection settings that cannot be used: an unknown context, half a key pair (exit code 1)."""


class CommandError(Exception):
    """A failure the command itself detected (a bad value, nothing to act on): exit code 1."""

    def __init__(self, message: str, exit_code: ExitCode = ExitCode.ERROR) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def usage_error(message: str) -> CommandError:
    """A bad option value found by the command itself: one line, exit code 2, nothing sent."""
    return CommandError(message, ExitCode.USAGE)


class PartialFailure(Exception):
    """Some of the servers a command asked did not answer; the rest was printed. Exit code 6."""

    def __init__(self, failures: list[BaseException]) -> None:
        super().__init__(f"{len(failures)} request(s) failed")
        self.failures = failures


@dataclass(slots=True)
class ErrorReport:
    """One failure as said: its exit code, the line, its kind and the JSON members that detail it."""

    exit_code: ExitCode
    message: str
    kind: str
    details: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {
            "error": {
                "kind": self.kind,
                "exitCode": int(self.exit_code),
                "message": self.message,
                **self.details,
            }
        }


def one_line(text: str) -> str:
    return " ".join(text.split())


def clean_remark(remark: str | None) -> str:
    """A server remark without the FAQ link Java appends, on one line."""
    if not remark:
        return ""
    return one_line(_FAQ.sub("", remark))


_ACL_EDIT_FAILED = (
    ResponseCode.UPDATE_AND_CREATE_ACL_CONFIG_FAILED,
    ResponseCode.DELETE_ACL_CONFIG_FAILED,
    ResponseCode.UPDATE_GLOBAL_WHITE_ADDRS_CONFIG_FAILED,
)


def _request_hint(exc: RemoteCommandError, settings: AdminSettings | None) -> str:
    code, req = exc.code, exc.request_code
    if code == ResponseCode.TOPIC_NOT_EXIST and req == RequestCode.GET_ROUTEINFO_BY_TOPIC:
        return "check the topic name ('mqadmin topicList' lists them) or create it with 'mqadmin updateTopic'"
    remark = (exc.remark or "").lower()
    if code in _ACL_EDIT_FAILED:  # the account or white list being written is wrong, not the caller's keys
        return ""
    auth_admin = req is not None and RequestCode.AUTH_CREATE_USER <= req <= RequestCode.AUTH_LIST_ACL
    if auth_admin and remark.startswith("the "):  # ACL 2.0: "The user is not exist", not the caller's keys
        return ""
    if code == ResponseCode.NO_PERMISSION and "black list" in remark:
        return "that setting cannot be changed while the server runs (it is in configBlackList)"
    if code == ResponseCode.NO_PERMISSION or any(w in remark for w in ("accesskey", "signature", "acl")):
        return (
            "check the credentials (--access-key/--secret-key, MQADMIN_ACCESS_KEY/MQADMIN_SECRET_KEY, "
            "a context, or $ROCKETMQ_HOME/conf/tools.yml)"
        )
    if code == ResponseCode.REQUEST_CODE_NOT_SUPPORTED:
        return "that server's version does not support this request"
    return ""


def _timeout_hint(applied: float, settings: AdminSettings | None) -> str:
    """Which limit a timed-out request had: --timeout, a multiple of it, or a fixed one (as Java's)."""
    given = settings.timeout if settings is not None else None
    if given is None or given <= 0 or abs(applied - given) < 1e-6:
        return "--timeout sets the limit"
    times = applied / given
    if abs(times - round(times)) < 1e-6 and round(times) > 1:
        return f"this request waits {round(times)} times --timeout ({given:g} s), as the Java tool's does"
    return f"this request has a fixed {applied:g} s limit, as the Java tool's has"


def _unreachable_hint(addr: str, settings: AdminSettings | None) -> str:
    if settings is None:
        return ""
    if addr in settings.namesrv_addrs or "," in addr:
        if settings.namesrv_is_default:
            return (
                f"no name server address was given and none answers at the default {addr}: "
                "give one with -n host:port, NAMESRV_ADDR, or 'mqadmin context add NAME -n host:port'"
            )
        return "is the name server running there? Check -n, NAMESRV_ADDR or the context"
    return "is the broker running there?"


def malformed_addr(addr: str) -> str | None:
    """Why ``addr`` is not a ``host:port`` address (None when it is one)."""

    try:
        parse_addr(addr)
    except RemotingConnectError:
        return f"malformed address {addr!r}: expected host:port with a port from 1 to 65535"
    return None


def _is_not_found_error(exc: BaseException) -> bool:
    """No such message, no such cluster (errors of two admin families, loaded when a command uses them)."""
    from mqadmin.admin.brokers import ClusterNotFoundError
    from mqadmin.admin.messages import MessageNotFoundError

    return isinstance(exc, MessageNotFoundError | ClusterNotFoundError)


def _with_hint(message: str, hint: str) -> str:
    return f"{message}; {hint}" if hint else message


_IDENTIFIED: dict[tuple[str, bool], Any] = {}
"""What answered at an address (:func:`mqadmin.remoting.diagnose.identify`), asked once per run."""


def _identify(addr: str, remoting: bool) -> Any:
    key = (addr, remoting)
    if key not in _IDENTIFIED:
        _IDENTIFIED[key] = identify(addr, 1.0, remoting=remoting)
    return _IDENTIFIED[key]


def wrong_port(exc: BaseException, settings: AdminSettings | None) -> tuple[str, str] | None:
    """When a failure at an address is explained by what listens there ("127.0.0.1:10911 is a broker,
    not a name server"): that line and the kind's name; None otherwise (or when it cannot be told).

    Asked only for the symptoms of a wrong address: a request the server does not know, a connection
    closed or refused, no answer at all (then no RocketMQ request is sent: the peer may be busy).
    """

    addr = getattr(exc, "addr", None)
    if settings is None or not isinstance(addr, str) or malformed_addr(addr) is not None:
        return None
    if isinstance(exc, RemoteCommandError):
        if exc.code != ResponseCode.REQUEST_CODE_NOT_SUPPORTED:
            return None
        kind = _identify(addr, True)
    elif isinstance(exc, DeadlineError):
        return None
    elif isinstance(exc, RemotingTimeoutError):
        kind = _identify(addr, False)
    elif isinstance(exc, RemotingConnectError):
        kind = Kind.CLOSED if "refused" in exc.reason.lower() else None
    elif isinstance(exc, RemotingError):
        kind = _identify(addr, True)
    else:
        return None
    expected = "name server" if addr in settings.namesrv_addrs else "broker"
    if isinstance(exc, RemoteCommandError) and kind in (Kind.NAME_SERVER, Kind.BROKER):
        # a server that refused the request as unknown: the wrong kind only if the request registry
        # says the other kind serves that code (else the right kind, without the feature)
        expected = _server_of(exc.request_code, kind)
    if kind is None or kind is Kind.SILENT or kind.value == f"a {expected}":
        return None
    if kind is Kind.CLOSED:  # the connect error's own words first: scripts grep for them
        return f"{one_line(str(exc))} ({addr} is a closed port: nothing listens there)", "closed"
    if kind is Kind.TLS and not settings.tls:
        return f"{addr} is a TLS server, not a plain {expected}: add --tls, or give its plain port", "tls"
    return f"{addr} is {kind.value}, not a {expected}", kind.name.lower()


def _server_of(code: int | None, kind: Any) -> str:
    """The kind of server a request ``code`` was meant for when a ``kind`` server refused it as
    unknown: the other kind when only that one serves it, else ``kind``'s own (no diagnosis)."""
    from mqadmin.protocol.requests import declared  # the registry, once a server refused a request

    decl = declared(code) if code is not None else None
    servers = decl.servers if decl is not None else frozenset()
    if kind is Kind.BROKER and "namesrv" in servers and "broker" not in servers:
        return "name server"
    if kind is Kind.NAME_SERVER and "broker" in servers and not servers & {"namesrv", "controller"}:
        return "broker"
    return "name server" if kind is Kind.NAME_SERVER else "broker"


def _diagnosed(report: ErrorReport, exc: BaseException, settings: AdminSettings | None) -> ErrorReport:
    """``report`` with its message replaced by what answered at the address, when that explains it."""
    found = wrong_port(exc, settings)
    if found is None:
        return report
    line, kind = found
    hint = ""
    if isinstance(exc, RemotingConnectError):
        hint = _unreachable_hint(exc.addr, settings)
    elif settings is not None and getattr(exc, "addr", None) in settings.namesrv_addrs:
        hint = "check -n, NAMESRV_ADDR or the context"
    report.message = _with_hint(line, hint)
    report.details["answeredBy"] = kind
    return report


def describe(exc: BaseException, settings: AdminSettings | None = None) -> ErrorReport:
    """The exit code, the one-line message and the JSON details of a failure (and, for the symptoms
    of a wrong address, what answered there: :func:`wrong_port`)."""
    return _diagnosed(_describe(exc, settings), exc, settings)


def _describe(exc: BaseException, settings: AdminSettings | None) -> ErrorReport:
    if isinstance(exc, RemoteCommandError):
        remark = clean_remark(exc.remark)
        role = "name server" if settings is not None and exc.addr in settings.namesrv_addrs else "server"
        msg = f"CODE: {exc.code} ({exc.code_name}) from {role} {exc.addr}"
        if remark:
            msg += f": {remark}"
        details = {"addr": exc.addr, "code": exc.code, "codeName": exc.code_name, "remark": exc.remark}
        rc = ExitCode.NOT_FOUND if _not_found(exc) else ExitCode.REMOTE
        return ErrorReport(rc, _with_hint(msg, _request_hint(exc, settings)), "remote", details)
    if isinstance(exc, NameServersUnavailableError):
        code = ExitCode.TIMEOUT if exc.all_timed_out else ExitCode.UNREACHABLE
        failures = [{"addr": a, "message": one_line(str(e))} for a, e in exc.failures]
        msg = _with_hint(
            one_line(str(exc)), "are the name servers running? Check -n, NAMESRV_ADDR or the context"
        )
        return ErrorReport(
            code, msg, "timeout" if code == ExitCode.TIMEOUT else "unreachable", {"failures": failures}
        )
    if isinstance(exc, DeadlineError | RemotingTimeoutError):
        limit = (
            "--deadline sets that limit (default three times --timeout)"
            if isinstance(exc, DeadlineError)
            else _timeout_hint(exc.timeout, settings)
        )
        msg = _with_hint(one_line(str(exc)), f"the server may be overloaded or the address wrong; {limit}")
        return ErrorReport(ExitCode.TIMEOUT, msg, "timeout", {"addr": exc.addr})
    if isinstance(exc, RemotingConnectError) and malformed_addr(exc.addr) is not None:
        # refused before any connection was tried: a typing mistake, not a network failure
        return ErrorReport(ExitCode.USAGE, malformed_addr(exc.addr) or "", "usage", {"addr": exc.addr})
    if isinstance(exc, RemotingConnectError | RemotingError):
        hint = _unreachable_hint(exc.addr, settings) if isinstance(exc, RemotingConnectError) else ""
        return ErrorReport(
            ExitCode.UNREACHABLE, _with_hint(one_line(str(exc)), hint), "unreachable", {"addr": exc.addr}
        )
    if isinstance(exc, CommandError):
        return ErrorReport(exc.exit_code, one_line(str(exc)), "command")
    if isinstance(exc, SettingsError):
        return ErrorReport(ExitCode.ERROR, one_line(str(exc)), "settings")
    if isinstance(exc, HeaderError):  # a name or number refused before anything was sent
        return ErrorReport(ExitCode.USAGE, one_line(exc.remark), "usage")
    if _is_not_found_error(exc):
        return ErrorReport(ExitCode.NOT_FOUND, one_line(str(exc)), "notFound")
    if isinstance(exc, AdminError | ProtocolError):
        return ErrorReport(ExitCode.ERROR, one_line(str(exc)), "response")
    text = one_line(str(exc))
    msg = f"internal error: {type(exc).__name__}" + (f": {text}" if text else "")
    return ErrorReport(ExitCode.ERROR, msg + " (run with --debug for the traceback)", "internal")


def exit_code_of(failures: list[BaseException], any_success: bool) -> ExitCode:
    """Exit code of a fan-out: PARTIAL when something answered, else the code of the first failure."""
    if not failures:
        return ExitCode.OK
    if any_success:
        return ExitCode.PARTIAL
    return describe(failures[0]).exit_code
