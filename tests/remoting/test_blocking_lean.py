"""The blocking client's start-up: what a request on it imports, and the small pieces that stand in
for the standard library's heavier ones answering exactly as those did.

- in a bare interpreter (no site, only this source tree on the path), a request to our real name
  server on the blocking client, by address and by host name, imports neither ``socket``,
  ``threading``, ``re`` nor the IDNA codec, nor the wrong-port diagnosis (only for failures); the
  admin layer's settings, errors, fan-out result and atomic files import nothing heavy either;
- ``_errnos`` finds the numbers the regex it replaced found, for any text;
- ``host_name`` gives ``getaddrinfo`` the bytes the IDNA codec would give it, or the text when the
  codec would refuse or change it (so the same error or the same lookup follows).
"""

from __future__ import annotations

import pickle
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mqadmin.admin.settings import AdminSettings, Credentials
from mqadmin.protocol.codes import RequestCode
from mqadmin.remoting.blocking import _errnos, host_name, os_reason
from tests.bare import heavy_in, run_bare
from tests.servers import NameServerProcess

_LEAN_MODULES = (
    "mqadmin.atomicfile",
    "mqadmin.admin",
    "mqadmin.admin.errors",
    "mqadmin.admin.family",
    "mqadmin.admin.fanout",
    "mqadmin.admin.settings",
    "mqadmin.admin.signing",
)


def test_a_blocking_request_imports_nothing_heavy(namesrv: NameServerProcess) -> None:
    port = namesrv.addr.rpartition(":")[2]
    out, names = run_bare(
        "from mqadmin.protocol.command import RemotingCommand\n"
        "from mqadmin.remoting.blocking import BlockingClient\n"
        "client = BlockingClient(connect_timeout=3.0)\n"
        f"for addr in ({namesrv.addr!r}, 'localhost:{port}'):\n"
        f"    request = RemotingCommand.request({RequestCode.GET_BROKER_CLUSTER_INFO})\n"
        "    resp = client.invoke_blocking(addr, request, 3.0)\n"
        "    print(addr, resp.code, len(resp.body or b''))\n"
        f"import {', '.join(_LEAN_MODULES)}\n"
    )
    lines = out.splitlines()
    assert [ln.split()[:2] for ln in lines] == [[namesrv.addr, "0"], [f"localhost:{port}", "0"]]
    assert all(int(ln.split()[2]) > 0 for ln in lines)  # a cluster table came back
    assert "mqadmin.remoting.blocking" in names and "mqadmin.admin.fanout" in names
    heavy = heavy_in(names, "stringprep", "unicodedata")  # and the IDNA codec's
    assert not heavy, heavy
    assert "encodings.idna" not in names
    assert "mqadmin.remoting.diagnose" not in names and "mqadmin.remoting.client" not in names


_ERRNO = re.compile(r"\[Errno (\d+)\]")
_ERRNO_PIECES = st.sampled_from(
    ["[Errno ", "[Errno", "[", "]", "Errno ", "1", "11", "111", "0", "٣", "²", " ", "x"]
)


@given(st.lists(st.one_of(_ERRNO_PIECES, st.text(max_size=4)), max_size=16).map("".join))
def test_errno_numbers_are_the_regex_s(text: str) -> None:
    assert _errnos(text) == set(_ERRNO.findall(text))


def test_a_joined_connect_error_is_named_by_its_one_errno() -> None:
    same = OSError("Multiple exceptions: [Errno 111] Connect call failed, [Errno 111] Connect call failed")
    assert os_reason(same) == "Connection refused"
    two = OSError("Multiple exceptions: [Errno 111] refused, [Errno 101] unreachable")
    assert os_reason(two) == str(two)
    assert os_reason(OSError()) == "OSError"


def _labels(lengths: list[int]) -> str:
    return ".".join("a" * n for n in lengths)


_NAMES = ["localhost", "127.0.0.1", "::1", "", "bücher", "xn--bcher-kva", "a" * 64]
_HOSTS = st.one_of(
    st.text(max_size=80),
    st.text(alphabet="ab.-:1%[]", max_size=80),
    st.lists(st.sampled_from([0, 1, 62, 63, 64, 65]), min_size=1, max_size=4).map(_labels),
    st.lists(st.sampled_from(_NAMES), min_size=1, max_size=3).map(".".join),
)


@given(_HOSTS)
def test_host_names_are_what_the_idna_codec_makes(host: str) -> None:
    try:
        expected: bytes | None = host.encode("idna")
    except UnicodeError:
        expected = None
    got = host_name(host)
    if isinstance(got, bytes):
        assert got == expected
    else:  # left to getaddrinfo, which encodes (or refuses) it as before
        assert got == host
        assert expected is None or not host.isascii()


def test_settings_compare_hash_print_and_pickle_as_before() -> None:
    creds = Credentials("ak", "sk", "token")
    s = AdminSettings(namesrv_addrs=("a:1", "b:2"), timeout=2.0, credentials=creds, tls=True)
    assert s == AdminSettings(("a:1", "b:2"), 2.0, Credentials("ak", "sk", "token"), True)
    assert (
        s != AdminSettings() and s != s.with_(timeout=3.0) and hash(s) == hash(pickle.loads(pickle.dumps(s)))
    )
    assert pickle.loads(pickle.dumps(s)) == s and len({s, s.with_(), creds}) == 2
    assert repr(s) == (
        "AdminSettings(namesrv_addrs=('a:1', 'b:2'), timeout=2.0, credentials=Credentials(access_key='ak', "
        "secret_key='***'), tls=True, connect_timeout=3.0, version=479, language='JAVA', "
        "namesrv_is_default=False)"
    )
    assert "sk" not in repr(creds) and "token" not in repr(s)
    changed = s.with_(timeout=0.5, connect_timeout=0.5)
    assert (changed.timeout, changed.connect_timeout, changed.namesrv_addrs, changed.credentials) == (
        0.5,
        0.5,
        ("a:1", "b:2"),
        creds,
    )
    for target, name in ((s, "timeout"), (creds, "secret_key")):
        with pytest.raises(AttributeError):
            setattr(target, name, 1)
