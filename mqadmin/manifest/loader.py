"""Reading manifests: files, folders, ``${VAR}``, secrets, the schema and the names, before anything is sent.

Each ``-f`` is a file or a folder (every ``*.yaml``/``*.yml`` in it, by name); each YAML document in
them is one cluster's part. Text values may name environment variables (``${VAR}``,
``${VAR:-default}``; ``$${`` is a literal ``${``); a password is ``${VAR}`` or
``{secretFrom: {env: VAR}}`` / ``{secretFrom: {file: PATH}}`` (a relative path is read beside the
manifest), never the secret itself in a file someone commits. Every refusal is a
:class:`~mqadmin.manifest.schema.SchemaError` naming the file, the line and why.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from mqadmin.manifest.model import ATTR, Acl1Account, AclEntry, ClusterManifest, Declared, UserSpec
from mqadmin.manifest.schema import SchemaError, check_document, scalar_value

__all__ = ["ManifestError", "load_manifests", "manifest_files", "parse_manifests"]

_VAR = re.compile(r"\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")
_RESOLVER = yaml.resolver.Resolver()
_SUFFIXES = (".yaml", ".yml")


class ManifestError(Exception):
    """A manifest that cannot be read at all (no such file, an empty folder)."""


def manifest_files(paths: Sequence[str]) -> list[Path]:
    """The files the ``-f`` arguments name, folders expanded (their YAML files, by name)."""
    out: list[Path] = []
    for text in paths:
        path = Path(text)
        if path.is_dir():
            found = sorted(p for p in path.iterdir() if p.suffix in _SUFFIXES and p.is_file())
            if not found:
                raise ManifestError(f"{text}: the folder holds no .yaml or .yml file")
            out.extend(found)
        elif path.is_file():
            out.append(path)
        else:
            raise ManifestError(f"{text}: no such file or folder")
    return out


def load_manifests(paths: Sequence[str], env: Mapping[str, str] | None = None) -> list[ClusterManifest]:
    """Every cluster the files declare, in the order first met (documents of one cluster merged)."""
    texts = []
    for path in manifest_files(paths):
        try:
            texts.append((str(path), path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError) as e:
            raise ManifestError(f"{path}: {e}") from None
    return parse_manifests(texts, os.environ if env is None else env)


def parse_manifests(texts: Sequence[tuple[str, str]], env: Mapping[str, str]) -> list[ClusterManifest]:
    """:func:`load_manifests` of (source name, YAML text) pairs."""
    clusters: dict[str, ClusterManifest] = {}
    for source, text in texts:
        for node in _documents(source, text):
            _Reader(source, env).read(node, clusters)
    return list(clusters.values())


def _documents(source: str, text: str) -> Iterator[yaml.Node]:
    try:
        nodes = list(yaml.compose_all(text, Loader=yaml.SafeLoader))
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 if mark is not None else 1
        raise SchemaError(source, line, "", f"not YAML: {e.problem or e.context}") from None
    except yaml.YAMLError as e:
        raise SchemaError(source, 1, "", f"not YAML: {e}") from None
    for node in nodes:
        if node is not None:
            yield node


def _lines(node: yaml.MappingNode) -> Iterator[tuple[str, yaml.Node, yaml.Node]]:
    for k, v in node.value:
        yield str(scalar_value(k)), k, v


def _plain(node: yaml.Node) -> Any:
    if isinstance(node, yaml.MappingNode):
        return {str(scalar_value(k)): _plain(v) for k, v in node.value}
    if isinstance(node, yaml.SequenceNode):
        return [_plain(v) for v in node.value]
    assert isinstance(node, yaml.ScalarNode)
    return scalar_value(node)


def _text(value: Any) -> str:
    """A config or attribute value as the broker keeps it (``true``, not ``True``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class _Reader:
    def __init__(self, source: str, env: Mapping[str, str]) -> None:
        self.source = source
        self.env = env

    def at(self, node: yaml.Node) -> str:
        return f"{self.source}:{node.start_mark.line + 1}"

    def refuse(self, node: yaml.Node, path: str, reason: str) -> SchemaError:
        return SchemaError(self.source, node.start_mark.line + 1, path, reason)

    # ------------------------------------------------------------------------------ ${VAR}

    def interpolate(self, node: yaml.Node, path: str = "") -> None:
        if isinstance(node, yaml.MappingNode):
            for key, _, v in _lines(node):
                self.interpolate(v, f"{path}.{key}" if path else key)
        elif isinstance(node, yaml.SequenceNode):
            for i, v in enumerate(node.value):
                self.interpolate(v, f"{path}[{i}]")
        elif isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:str" and "$" in node.value:

            def sub(m: re.Match[str]) -> str:
                if m.group(0) == "$${":
                    return "${"
                name, default = m.group(1), m.group(2)
                value = self.env.get(name)
                if value is None:
                    if default is None:
                        raise self.refuse(node, path, f"the environment variable {name} is not set")
                    return default
                return value

            node.value = _VAR.sub(sub, node.value)
            if node.style is None:  # a plain scalar is read for what it now says (a number, true)
                node.tag = _RESOLVER.resolve(yaml.ScalarNode, node.value, (True, False))

    # ------------------------------------------------------------------------------ a document

    def read(self, node: yaml.Node, clusters: dict[str, ClusterManifest]) -> None:
        self.interpolate(node)
        check_document(node, self.source)
        assert isinstance(node, yaml.MappingNode)
        sections = {key: (k, v) for key, k, v in _lines(node)}
        cluster = str(scalar_value(sections["cluster"][1]))  # type: ignore[arg-type]
        m = clusters.setdefault(cluster, ClusterManifest(cluster))
        for section, (_, value) in sections.items():
            if section == "acl1":
                self._acl1(m, value)
            elif isinstance(value, yaml.MappingNode):
                for name, key_node, item in _lines(value):
                    self._one(m, section, name, key_node, item)

    def _claim(self, m: ClusterManifest, section: str, name: str, key_node: yaml.Node) -> str:
        where = self.at(key_node)
        first = m.origins.setdefault((section, name), where)
        if first != where:
            raise self.refuse(key_node, f"{section}.{name}", f"declared again (first at {first})")
        return where

    def _one(self, m: ClusterManifest, section: str, name: str, key_node: yaml.Node, item: yaml.Node) -> None:
        from mqadmin.protocol import names

        path = f"{section}.{name}"
        if section in ("topics", "groups"):
            why = names.check_topic(name) if section == "topics" else names.check_group(name)
            if why is not None:
                raise self.refuse(key_node, path, why)
            where = self._claim(m, section, name, key_node)
            declared = self._declared(name, _plain(item) or {}, where)
            (m.topics if section == "topics" else m.groups)[name] = declared
        elif section == "orderConfigs":
            self._claim(m, section, name, key_node)
            m.order_configs[name] = self._order_conf(item, path)
        elif section == "brokerConfig":
            self._claim(m, section, name, key_node)
            m.broker_config[name] = self._broker_config(name, item, path)
        elif section == "users":
            where = self._claim(m, section, name, key_node)
            m.users[name] = self._user(name, item, path, where)
        elif section == "acls":
            assert isinstance(item, yaml.SequenceNode)
            for i, entry in enumerate(item.value):
                acl = self._acl(name, entry, f"{path}[{i}]")
                self._claim(m, "acls", f"{name} {acl.resource}", entry)
                m.acls[acl.key()] = acl

    def _declared(self, name: str, raw: dict[str, Any], where: str) -> Declared:
        def fields(d: dict[str, Any]) -> dict[str, Any]:
            out = {
                k: v for k, v in d.items() if k not in ("attributes", "messageType", "brokers", "perBroker")
            }
            if "messageType" in d:
                out[ATTR + "message.type"] = d["messageType"]
            for k, v in (d.get("attributes") or {}).items():
                out[ATTR + k.removeprefix("+")] = _text(v)
            return out

        brokers = raw.get("brokers")
        per = {b: fields(f or {}) for b, f in (raw.get("perBroker") or {}).items()}
        return Declared(name, fields(raw), None if brokers is None else tuple(brokers), per, where)

    def _order_conf(self, item: yaml.Node, path: str) -> str:
        from mqadmin.admin.topics import check_order_conf
        from mqadmin.protocol.headers.base import HeaderError

        conf = str(scalar_value(item))  # type: ignore[arg-type]
        try:
            return check_order_conf(conf)
        except HeaderError as e:
            raise self.refuse(item, path, str(e)) from None

    def _broker_config(self, key: str, item: yaml.Node, path: str) -> str:
        from mqadmin.admin.brokers import check_broker_config_update
        from mqadmin.protocol.headers.base import HeaderError

        value = _text(scalar_value(item))  # type: ignore[arg-type]
        try:
            check_broker_config_update({key: value})
        except HeaderError as e:
            raise self.refuse(item, path, str(e)) from None
        return value

    def _user(self, name: str, item: yaml.Node, path: str, where: str) -> UserSpec:
        from mqadmin.admin.auth import check_user
        from mqadmin.protocol.bodies.auth import UserInfo
        from mqadmin.protocol.headers.base import HeaderError

        members = {key: v for key, _, v in _lines(item)} if isinstance(item, yaml.MappingNode) else {}
        secret = members.get("password")
        password = None if secret is None else self._secret(secret, f"{path}.password")
        user_type = members.get("userType")
        status = members.get("userStatus")
        spec = UserSpec(
            name,
            password,
            None if user_type is None else str(scalar_value(user_type)),  # type: ignore[arg-type]
            None if status is None else str(scalar_value(status)),  # type: ignore[arg-type]
            where,
        )
        try:
            check_user(UserInfo(name, spec.password, spec.user_type, spec.user_status), creating=False)
        except HeaderError as e:
            raise self.refuse(item, path, str(e)) from None
        return spec

    def _secret(self, node: yaml.Node, path: str) -> str:
        if isinstance(node, yaml.ScalarNode):
            return str(scalar_value(node))
        ref = _plain(node)["secretFrom"]
        if "env" in ref:
            value = self.env.get(ref["env"])
            if value is None:
                raise self.refuse(node, path, f"the environment variable {ref['env']} is not set")
            return value
        file = Path(ref["file"])
        if not file.is_absolute():
            file = Path(self.source).parent / file
        try:
            return file.read_text(encoding="utf-8").rstrip("\r\n")
        except (OSError, UnicodeDecodeError) as e:
            raise self.refuse(node, path, f"the secret file cannot be read: {e}") from None

    def _acl1(self, m: ClusterManifest, node: yaml.Node) -> None:
        assert isinstance(node, yaml.MappingNode)
        for key, key_node, value in _lines(node):
            if key == "globalWhiteAddrs":
                self._claim(m, "acl1", key, key_node)
                m.acl1_white = [str(v) for v in _plain(value)]
                continue
            assert isinstance(value, yaml.MappingNode)
            for ak, ak_node, item in _lines(value):
                where = self._claim(m, "acl1.accounts", ak, ak_node)
                members = {k: v for k, _, v in _lines(item)} if isinstance(item, yaml.MappingNode) else {}
                secret = members.pop("secretKey", None)
                fields = {k: _plain(v) for k, v in members.items()}
                key_text = None if secret is None else self._secret(secret, f"acl1.accounts.{ak}.secretKey")
                m.acl1_accounts[ak] = Acl1Account(ak, fields, key_text, where)

    def _acl(self, subject: str, node: yaml.Node, path: str) -> AclEntry:
        from mqadmin.admin.auth import check_acl
        from mqadmin.protocol.headers.base import HeaderError

        raw = _plain(node)
        entry = AclEntry(
            subject,
            str(raw["resource"]),
            tuple(str(a) for a in raw["actions"]),
            tuple(str(ip) for ip in raw.get("sourceIps") or ()),
            str(raw.get("decision", "Allow")),
            self.at(node),
        )
        try:
            check_acl(subject, [entry.resource], list(entry.actions), list(entry.source_ips), entry.decision)
        except HeaderError as e:
            raise self.refuse(node, path, str(e)) from None
        return entry
