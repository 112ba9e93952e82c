"""White-list address patterns mean what they mean to Java's ``RemoteAddressStrategyFactory`` (4.9.8):
the cases of Java's own ``RemoteAddressStrategyTest``, IPv4 and IPv6."""

from __future__ import annotations

import pytest

from mqadmin.broker.acl.addresses import AddressPatternError, address_matcher, expand_ip, peer_host


def matching(pattern: str, hosts: list[str]) -> list[str]:
    m = address_matcher(pattern)
    return [h for h in hosts if m(h)]


def test_blank_matches_nothing_and_stars_match_everything() -> None:
    for blank in (None, "", "   "):
        assert not address_matcher(blank)("127.0.0.1")
    for star in ("*", "*.*.*.*", "*:*:*:*:*:*:*:*"):
        assert address_matcher(star)("10.1.2.3") and address_matcher(star)("::1")


def test_one_address() -> None:
    assert matching("127.0.0.1", ["127.0.0.1", "127.0.0.2", ""]) == ["127.0.0.1"]
    assert matching("::1", ["::1", "::2", "0000:0000:0000:0000:0000:0000:0000:0001", "0:0:0:0:0:0:0:1"]) == [
        "::1",
        "0000:0000:0000:0000:0000:0000:0000:0001",
        "0:0:0:0:0:0:0:1",
    ]


@pytest.mark.parametrize("pattern", ["127.0.0.1,127.0.0.2,127.0.0.3", "127.0.0.{1,2,3}"])
def test_lists(pattern: str) -> None:
    hosts = [f"127.0.0.{i}" for i in range(5)]
    assert matching(pattern, hosts) == ["127.0.0.1", "127.0.0.2", "127.0.0.3"]


@pytest.mark.parametrize(
    "pattern",
    ["1050::0005:0600:300c:1,1050::0005:0600:300c:2,1050::0005:0600:300c:3", "1050::0005:0600:300c:{1,2,3}"],
)
def test_ipv6_lists(pattern: str) -> None:
    hosts = [f"1050:0000:0000:0000:0005:0600:300c:{i}" for i in range(5)]
    assert matching(pattern, hosts) == hosts[1:4]


def test_ipv4_ranges() -> None:
    last = [f"127.0.0.{i}" for i in range(-10, 300)]
    assert matching("127.0.0.1-200", last) == [f"127.0.0.{i}" for i in range(1, 201)]
    assert matching("127.0.0.*", last) == [f"127.0.0.{i}" for i in range(256)]
    assert matching("127.*.*.*", last) == [f"127.0.0.{i}" for i in range(256)]
    third = address_matcher("127.0.1-200.*")
    assert (
        third("127.0.1.0") and third("127.0.200.255") and not third("127.0.0.5") and not third("127.0.201.1")
    )
    second = address_matcher("127.1-150.*.*")
    assert second("127.150.3.4") and not second("127.151.3.4") and not second("127.0.3.4")
    assert address_matcher("192.100-150.*.*")("192.130.0.2")


def test_ipv6_ranges() -> None:
    head = "1050::0005:0600:300c:"
    hosts = [head + format(i, "x") for i in range(0x10064)]
    assert matching(head + "1-200", hosts) == hosts[1 : 0x200 + 1]
    assert matching(head + "*", hosts) == hosts[:0x10000]
    assert matching("1050::0005:0600:3001:*", hosts) == []
    two = address_matcher(head + "1-200:*")
    assert two(head + "1:0") and two(head + "200:ffff") and not two(head + "201:1")


@pytest.mark.parametrize(
    "pattern",
    [
        "256.0.0.1",
        "::1ggg",
        "127.0.0.1,2,3}",
        "::1,2,3}",
        "192.168.{1}",
        "{192.168.1}",
        "{192.168.1.1}",
        "127.0.0.2-1",
        "127.0.0.-1-200",
        "127.0.0.0-256",
        "127.0.0.1, 127.0.0.2",
        "2::ac5:78:1-200:*:1",
    ],
)
def test_patterns_java_refuses(pattern: str) -> None:
    with pytest.raises(AddressPatternError):
        address_matcher(pattern)


def test_expand_ip_and_peer_host() -> None:
    assert expand_ip("::1", 8) == "0000:0000:0000:0000:0000:0000:0000:0001"
    assert expand_ip("1050::5:600:300c:326b", 8) == "1050:0000:0000:0000:0005:0600:300C:326B"
    assert expand_ip("127.0.0.1", 8) == "127.0.0.1"
    assert peer_host("127.0.0.1:40000") == "127.0.0.1"
    assert peer_host("[::1]:40000") == "::1"
    assert peer_host("[::ffff:10.1.2.3]:40000") == "10.1.2.3"
