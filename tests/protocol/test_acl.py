"""ACL 1.0 signatures against every signed request in the recorded traffic.

The Java ``mqadmin`` runs signed with the credentials of the stock ``conf/tools.yml``
(``rocketmq2`` / ``12345678``); the C++ client signs too, with an empty access and secret key.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

import pytest

from mqadmin.protocol.acl import (
    ACCESS_KEY,
    SECURITY_TOKEN,
    SIGNATURE,
    UNIQUE_MSG_QUERY_FLAG,
    sign,
    signature,
    signed_content,
    verify,
)
from tests.captures import Frame, all_frames

TOOLS_ACCESS_KEY = "rocketmq2"
TOOLS_SECRET_KEY = "12345678"


def _signed_requests() -> list[Frame]:
    return [f for f in all_frames() if f.dir == "request" and SIGNATURE in (f.header.get("extFields") or {})]


def _as_text(ext: dict[str, object]) -> dict[str, str]:
    """The C++ client writes some ext values as JSON numbers; it signs their decimal text."""
    return {k: v if isinstance(v, str) else str(v) for k, v in ext.items()}


def test_every_signed_java_request_matches() -> None:
    frames = [f for f in _signed_requests() if f.header["language"] == "JAVA"]
    print(f"signed Java requests checked: {len(frames)}")
    assert len(frames) > 100
    versions = set()
    for f in frames:
        ext = f.header["extFields"]
        assert ext[ACCESS_KEY] == TOOLS_ACCESS_KEY
        assert signature(ext, f.body, TOOLS_SECRET_KEY) == ext[SIGNATURE], (f.scenario, f.index)
        assert verify(ext, f.body, TOOLS_SECRET_KEY)
        # Re-signing the unsigned fields gives the same fields back.
        unsigned = {k: v for k, v in ext.items() if k not in (SIGNATURE, ACCESS_KEY)}
        assert sign(unsigned, f.body, TOOLS_ACCESS_KEY, TOOLS_SECRET_KEY) == ext
        versions.add(f.header["version"])
    assert versions == {409, 479}  # both the 4.9.8 and the 5.3.3 tool


def test_signed_requests_with_bodies_are_covered() -> None:
    with_body = [f for f in _signed_requests() if f.body and f.header["language"] == "JAVA"]
    print(f"signed Java requests with a body: {len(with_body)}")
    assert with_body
    f = with_body[0]
    assert not verify(f.header["extFields"], f.body + b" ", TOOLS_SECRET_KEY)
    assert not verify(f.header["extFields"], None, TOOLS_SECRET_KEY)


def test_every_signed_cpp_request_matches() -> None:
    frames = [f for f in _signed_requests() if f.header["language"] == "CPP"]
    print(f"signed C++ requests checked: {len(frames)}")
    assert len(frames) >= 10
    for f in frames:
        ext = _as_text(f.header["extFields"])
        assert ext[ACCESS_KEY] == ""
        assert signature(ext, f.body, "") == ext[SIGNATURE], (f.scenario, f.index)


def test_unique_key_query_flag_is_signed_by_clients() -> None:
    frames = [f for f in _signed_requests() if UNIQUE_MSG_QUERY_FLAG in f.header["extFields"]]
    assert frames
    for f in frames:
        ext = f.header["extFields"]
        assert verify(ext, f.body, TOOLS_SECRET_KEY)
        # what a 4.9.8 server computes: it leaves the flag out, so it does not match
        assert not verify(ext, f.body, TOOLS_SECRET_KEY, ignore={UNIQUE_MSG_QUERY_FLAG})


def test_content_is_values_in_key_order_then_body() -> None:
    ext = {"topic": "T", "AccessKey": "ak", "b": "2", "Signature": "old", "B": "1"}
    assert signed_content(ext, b"BODY") == b"ak12TBODY"
    assert signed_content(ext, None) == b"ak12T"
    expected = base64.b64encode(hmac.new(b"sk", b"ak12TBODY", hashlib.sha1).digest()).decode()
    assert signature(ext, b"BODY", "sk") == expected


def test_java_string_order_is_utf16() -> None:
    # U+FF21 sorts after U+1F600 by code point but before it in UTF-16 (0xFF21 > 0xD83D).
    ext = {"\U0001f600": "a", "\uff21": "b"}
    assert signed_content(ext, None) == b"ab"


def test_sign_adds_fields_and_leaves_input_alone() -> None:
    ext = {"topic": "T"}
    out = sign(ext, None, "ak", "sk", security_token="tok")
    assert ext == {"topic": "T"}
    assert set(out) == {"topic", ACCESS_KEY, SECURITY_TOKEN, SIGNATURE}
    assert out[SIGNATURE] == signature({"topic": "T", ACCESS_KEY: "ak", SECURITY_TOKEN: "tok"}, None, "sk")
    assert SECURITY_TOKEN not in sign(ext, None, "ak", "sk")
    assert sign(ext, None, "ak", "sk", security_token="")[SECURITY_TOKEN] == ""
    # a stale signature is neither signed nor kept
    resigned = sign({"topic": "T", SIGNATURE: "stale"}, None, "ak", "sk")
    assert resigned == sign(ext, None, "ak", "sk")


@pytest.mark.parametrize("fields", [{}, {SIGNATURE: "x"}])
def test_verify_without_matching_signature(fields: dict[str, str]) -> None:
    assert not verify(fields, None, "sk")
