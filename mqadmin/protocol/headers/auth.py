"""ACL 2.0 admin request headers (5.3.3, ``remoting/.../protocol/header``), codes 3001-3010.

Java declares every field optional (``checkFields`` is empty): a missing username or subject is
answered by the handler, not by the decoder. The text rules of every header (no lone surrogate, no
NUL) apply, and usernames, subjects and filters are held to :data:`AUTH_TEXT_MAX_LENGTH` characters
without control characters, since they become keys of the broker's stored users and policies and
parts of its log lines.
"""

from __future__ import annotations

from mqadmin.protocol import names
from mqadmin.protocol.headers.base import Annotated, Check, RequestHeader, request_header

__all__ = [
    "AUTH_TEXT_MAX_LENGTH",
    "CreateAclRequestHeader",
    "CreateUserRequestHeader",
    "DeleteAclRequestHeader",
    "DeleteUserRequestHeader",
    "GetAclRequestHeader",
    "GetUserRequestHeader",
    "ListAclsRequestHeader",
    "ListUsersRequestHeader",
    "UpdateAclRequestHeader",
    "UpdateUserRequestHeader",
    "auth_text_refusal",
]

AUTH_TEXT_MAX_LENGTH = 1024
INVALID_PARAMETER = 29


def auth_text_refusal(what: str, text: str | None) -> str | None:
    """Why ``text`` cannot be a username, subject, resource or filter (too long, a control character)."""
    if text is None:
        return None
    if len(text) > AUTH_TEXT_MAX_LENGTH:
        return f"the {what} is longer than {AUTH_TEXT_MAX_LENGTH} characters"
    why = names.bad_text(text, controls=True)
    return None if why is None else f"the {what} {why}"


def _check(what: str) -> Check:
    return Check(lambda s: auth_text_refusal(what, s), INVALID_PARAMETER)


Username = Annotated[str, _check("username")]
SubjectText = Annotated[str, _check("subject")]
ResourceText = Annotated[str, _check("resource")]
FilterText = Annotated[str, _check("filter")]


@request_header
class CreateUserRequestHeader(RequestHeader):
    """AUTH_CREATE_USER (3001); the user itself is the ``UserInfo`` body."""

    username: Username | None = None


@request_header
class UpdateUserRequestHeader(RequestHeader):
    """AUTH_UPDATE_USER (3002)."""

    username: Username | None = None


@request_header
class DeleteUserRequestHeader(RequestHeader):
    """AUTH_DELETE_USER (3003)."""

    username: Username | None = None


@request_header
class GetUserRequestHeader(RequestHeader):
    """AUTH_GET_USER (3004)."""

    username: Username | None = None


@request_header
class ListUsersRequestHeader(RequestHeader):
    """AUTH_LIST_USER (3005): usernames containing ``filter``."""

    filter: FilterText | None = None


@request_header
class CreateAclRequestHeader(RequestHeader):
    """AUTH_CREATE_ACL (3006); the policies are the ``AclInfo`` body."""

    subject: SubjectText | None = None


@request_header
class UpdateAclRequestHeader(RequestHeader):
    """AUTH_UPDATE_ACL (3007)."""

    subject: SubjectText | None = None


@request_header
class DeleteAclRequestHeader(RequestHeader):
    """AUTH_DELETE_ACL (3008): the whole policy set of ``subject``, or one resource of it."""

    subject: SubjectText | None = None
    policy_type: Annotated[str, _check("policy type")] | None = None
    resource: ResourceText | None = None


@request_header
class GetAclRequestHeader(RequestHeader):
    """AUTH_GET_ACL (3009)."""

    subject: SubjectText | None = None


@request_header
class ListAclsRequestHeader(RequestHeader):
    """AUTH_LIST_ACL (3010): subjects containing ``subjectFilter``, entries whose resource contains
    ``resourceFilter``."""

    subject_filter: FilterText | None = None
    resource_filter: FilterText | None = None
