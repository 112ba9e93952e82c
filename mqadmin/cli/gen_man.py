"""The ``mqadmin(1)`` man page, written from :mod:`mqadmin.cli.docmodel` and the module docs.

Commands, their Java options and JSON shapes come from the command definitions; connection rules,
exit codes and environment come from the modules that implement them, so the page cannot drift
from the code without the check in the tests noticing.
"""

from __future__ import annotations

import re

import click

from mqadmin import __version__
from mqadmin.cli.clickcommand import JavaCommand
from mqadmin.cli.docmodel import CmdSpec, OptSpec
from mqadmin.cli.exitcodes import DESCRIPTIONS
from mqadmin.cli.javahelp import usage_line
from mqadmin.cli.registry import FAMILIES, FAMILY_TITLES

__all__ = ["man_page"]


def esc(text: str) -> str:
    """Text safe for roff: backslashes, leading dots/quotes, and dashes of options."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    lines = []
    for line in text.split("\n"):
        if line[:1] in (".", "'"):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def _opt_head(o: OptSpec) -> str:
    names = ", ".join(f"\\fB{esc(n)}\\fR" for n in o.names)
    if o.takes_value:
        meta = o.metavar or ("|".join(o.choices) if o.choices else "<arg>")
        names += f" \\fI{esc(meta)}\\fR"
    return names


def _options(opts: list[OptSpec], skip: set[str] | None = None) -> list[str]:
    out: list[str] = []
    for o in opts:
        if skip and set(o.names) & skip:
            continue
        req = " (required)" if o.required else ""
        out += [".TP", _opt_head(o), esc(" ".join(o.help.split())) + req]
    return out


def synopsis(cmd: JavaCommand) -> str:
    """The whole usage line of a Java command (the help wraps it at 110 columns; the page must not cut
    it), followed by this command's own options."""
    text = " ".join(usage_line(cmd.name or "", cmd.java_opts).split()).removeprefix("usage: ")
    for p in cmd.own_params:
        if isinstance(p, click.Option):
            name = next((n for n in p.opts if n.startswith("--")), p.opts[0])
            text += f" [{name}]" if p.is_flag else f" [{name} {p.metavar or '<arg>'}]"
    return text


PROSE = {
    "namesrv": r"""
Every command that talks to a cluster takes \fB\-n\fR \fIhost:port;host:port\fR (commas work too).
Without it the name servers come from the context named with \fB\-\-context\fR, else
\fBNAMESRV_ADDR\fR, else the context named by \fBMQADMIN_CONTEXT\fR or made current with
\fBmqadmin context use\fR, else 127.0.0.1:9876 (a note on stderr says when that default was used).
A malformed address (no port, a port out of range) is a usage error (exit 2) and nothing is sent.
A request any name server can answer goes to the first one; when it cannot be reached or does not
answer in time the next one is tried, and the one that answered is used for the rest of the
command. Commands that change name server state (\fBupdateKvConfig\fR, \fBdeleteKvConfig\fR,
\fBwipeWritePerm\fR, \fBaddWritePerm\fR, \fBupdateNamesrvConfig\fR) and \fBgetNamesrvConfig\fR
address every name server of the list, all at once.
""",
    "contexts": r"""
A context is a named connection profile: name servers, ACL credentials, a timeout and TLS.
Contexts are kept in \fI$MQADMIN_CONFIG_DIR/contexts.json\fR (default
\fI$XDG_CONFIG_HOME/mqadmin\fR or \fI~/.config/mqadmin\fR), readable by the owner only.
.PP
.nf
mqadmin context add prod \-n 10.0.0.1:9876;10.0.0.2:9876 \-\-access\-key AK \-\-secret\-key SK \-\-use
mqadmin context list
mqadmin context show prod
mqadmin \-\-context staging clusterList
mqadmin context remove staging
.fi
""",
    "credentials": r"""
With ACL 1.0 credentials every request is signed as the Java tool signs it (HmacSHA1 over the
sorted header values and the body). The keys come from \fB\-\-access\-key\fR and
\fB\-\-secret\-key\fR, else \fBMQADMIN_ACCESS_KEY\fR and \fBMQADMIN_SECRET_KEY\fR, else the context,
else \fI$ROCKETMQ_HOME/conf/tools.yml\fR (\fBaccessKey\fR and \fBsecretKey\fR, as the Java tool reads it).
Without any, requests are not signed.
\fB\-\-secret\-key \-\fR (also with \fBcontext add\fR) reads the secret key from a prompt that does
not echo, or from the first line of standard input when it is not a terminal, so it stays out of
the shell history and the process list.
A context's keys, timeout and TLS apply only to that context's name servers and their brokers: an
address given with \fB\-n\fR or \fBNAMESRV_ADDR\fR gets no context keys unless \fB\-\-context\fR is named.
""",
    "tls": r"""
\fB\-\-tls\fR (or a context made with \fB\-\-tls\fR, or \fBMQADMIN_TLS=1\fR) makes every connection
TLS. As the Java client does by default, the server certificate is not verified.
""",
    "output": r"""
The default text output is the Java tool's, byte for byte: headers, column widths, number
formats (Java rounds half up), orders (Java hash map and set iteration orders), line ends.
Nothing else is written to stdout: messages and errors go to stderr.
.PP
\fB\-\-json\fR (or \fB\-\-output json\fR) prints the same data as one standard JSON document
(indented); \fB\-\-output yaml\fR prints it as YAML. Every document follows one contract,
\fBmqadmin/v1\fR: it starts with "apiVersion": "mqadmin/v1" (each line of a stream, \fB\-i\fR with
\fB\-\-json\fR or \fBprintMsg \-\-json\-lines\fR, also has a "timestamp"); members are camelCase;
numbers are numbers; times are epoch milliseconds in members ending Timestamp, durations
milliseconds in members ending Ms, rates in members ending Tps (rounded to 2 places, one member
per window); what is absent or unknown is null; every member of a "brokers" list starts with
cluster, brokerName, brokerId and addr. \fBmqadmin schema\fR lists the JSON Schema files (draft
2020\-12, shipped in the package) and \fBmqadmin schema\fR \fIcommand\fR prints one; a change of a
published schema is a new apiVersion. The shape of each command's document is also
given with the command above. When some of the servers a command asks fail,
the document has an \fBerrors\fR list. When a command fails, stdout gets
{"apiVersion", "error": {"kind", "exitCode", "message", ...}} instead (\fBkind\fR is one of remote,
unreachable, timeout, usage, command, settings, response, internal; remote errors add \fBaddr\fR, \fBcode\fR,
\fBcodeName\fR and \fBremark\fR).
.PP
\fB\-\-output table\fR draws the same data as columns for people: they fit the terminal, or 80
columns (\fBCOLUMNS\fR) in a pipe, a cell is never wrapped, so no word is split: headers shorten,
then long text is cut with \(lq\&...\(rq, then the least important columns are left out (the title
says how many); the columns naming a row (cluster, broker, topic, group, queue) always stay.
\fB\-\-wide\fR shows every column whole. Rows are sorted by those naming columns (digits as
numbers); \fB\-\-sort\-by\fR \fIcolumn\fR[,...] sorts by others (\fB\-\fR\fIcolumn\fR descending,
a short header works too). \fB\-\-no\-headers\fR prints rows only. Permissions read \fBRW\-\fR, times
are local times, none is \fB\-\fR, and empty lists are left out.
\fB\-\-output name\fR (\fB\-o name\fR where the Java command has no \fB\-o\fR) prints the names
of the resources listed, one a line, for \fBxargs\fR or \fBwhile read\fR.
.PP
\fB\-i\fR \fIseconds\fR (clusterList, consumerProgress, topicStatus, statsAll, brokerStatus)
runs the command again and again; \fB\-\-count\fR \fIn\fR stops after n rounds with the last
round's exit code. On a terminal the screen is redrawn in place under a line with the round's time
and what changed since the round before (the lag's move in red while it grows, green as it
shrinks); piped, the rounds follow each other (one compact JSON document a line with
\fB\-\-json\fR, tables under a line with the round's time).
""",
    "timeouts": r"""
\fB\-\-timeout\fR \fIseconds\fR bounds every request (default 5, as the Java tool's 5000 ms).
Commands that ask many servers (\fBclusterList\fR, \fBtopicList \-c\fR, the name server commands)
send those requests concurrently and stop waiting at \fB\-\-deadline\fR \fIseconds\fR (default three
times the timeout); servers that did not answer by then are reported as timed out.
""",
    "errors": r"""
A failure is one line on stderr: \fBmqadmin\fR \fIcommand\fR\fB:\fR the message, with the address
of the server involved, the response code and remark for an error answer, and what to do where
that is clear (an unknown topic, a missing name server address, a refused connection).
\fB\-\-debug\fR adds the traceback and log messages.
""",
}

ENVIRONMENT = [
    ("NAMESRV_ADDR", "Name server list when \\-n and \\-\\-context are not given (as the Java tool)."),
    ("MQADMIN_CONTEXT", "The context to use for this call."),
    ("MQADMIN_CONFIG_DIR", "Directory of contexts.json."),
    ("MQADMIN_ACCESS_KEY, MQADMIN_SECRET_KEY", "ACL credentials."),
    ("MQADMIN_TIMEOUT", "Seconds per request."),
    ("MQADMIN_TLS", "1 or true: use TLS."),
    ("ROCKETMQ_HOME", "Where conf/tools.yml is read from."),
]

EXAMPLES = r"""
.nf
mqadmin clusterList \-n 10.0.0.1:9876
NAMESRV_ADDR=10.0.0.1:9876 mqadmin topicRoute \-t Orders
mqadmin topicRoute \-t Orders \-\-json | jq '.queueDatas[].perm'
mqadmin clusterList \-i 5
mqadmin updateKvConfig \-s ORDER_TOPIC_CONFIG \-k Orders \-v broker\-a:8
mqadmin wipeWritePerm \-b broker\-a \-n "10.0.0.1:9876;10.0.0.2:9876" || echo "exit $?"
.fi
"""


def man_page(specs: list[CmdSpec], common: list[OptSpec]) -> str:
    out = [
        f'.TH MQADMIN 1 "" "mqadmin {__version__}" "User Commands"',
        ".nh",
        ".ad l",
        ".SH NAME",
        "mqadmin \\- Apache RocketMQ admin toolkit",
        ".SH SYNOPSIS",
        ".B mqadmin",
        "[\\fIoptions\\fR] \\fIcommand\\fR [\\fIcommand options\\fR]",
        ".br",
        ".B mqadmin help",
        "[\\fIcommand\\fR]",
        ".SH DESCRIPTION",
        "\\fBmqadmin\\fR administers Apache RocketMQ clusters (4.9.x and 5.x name servers and brokers).",
        "Commands keep the names, option letters and text output of the Java \\fBmqadmin\\fR",
        "(RocketMQ 5.3.3), so runbooks written for it keep working; unlike it, \\fBmqadmin\\fR exits",
        "non\\-zero when a command fails, offers JSON output, and starts in a fraction of a second.",
        "Option values follow the Java rules: \\fB\\-t T\\fR, \\fB\\-tT\\fR, \\fB\\-\\-topic T\\fR,",
        "\\fB\\-\\-topic=T\\fR, \\fB\\-topic T\\fR and unambiguous long prefixes all work.",
        "Command names are matched ignoring case.",
        ".SH COMMANDS",
    ]
    for family in FAMILIES:
        members = [s for s in specs if s.family == family]
        if not members:
            continue
        out.append(f'.SS "{esc(FAMILY_TITLES[family])}"')
        for s in members:
            out += [".TP", f"\\fB{esc(s.name)}\\fR", esc(s.summary)]
            out.append(".RS")
            if s.java is not None:
                # an option and its value never split across lines (roff's unbreakable space)
                out += [".PP", re.sub(r" (<arg>|[A-Z][A-Z_]*\])", r"\\ \1", esc(synopsis(s.java)))]
                out += _options(
                    s.options,
                    skip={
                        "--context",
                        "--timeout",
                        "--json",
                        "--output",
                        "--wide",
                        "--sort-by",
                        "--no-headers",
                        "--access-key",
                        "--secret-key",
                        "--tls",
                        "--debug",
                        "--help",
                    },
                )
                if s.java.json_doc:
                    out += [".PP", "JSON: " + esc(s.java.json_doc)]
            else:
                out += _options(s.options, skip={"--help"})
                for sub in s.subcommands:
                    args = " ".join(f"\\fI{esc(a)}\\fR" for a in sub.arguments)
                    out += [
                        ".PP",
                        f"\\fB{esc(s.name)} {esc(sub.name)}\\fR {args}".rstrip(),
                        ".br",
                        esc(sub.summary),
                    ]
                    opts = _options(sub.options, skip={"--help"})
                    if opts:
                        out += [".RS", *opts, ".RE"]
            out.append(".RE")
    out += [
        ".SH OPTIONS",
        "These apply to every command, before or after its name; a value after the name wins.",
    ]
    out += _options(common)
    out += [
        ".TP",
        "\\fB\\-\\-deadline\\fR \\fISECONDS\\fR",
        "(commands that ask many servers) Stop waiting for the servers asked in parallel after this "
        "many seconds (default: three times \\-\\-timeout).",
    ]
    for title, key in (
        ("NAME SERVER ADDRESS", "namesrv"),
        ("CONTEXTS", "contexts"),
        ("CREDENTIALS", "credentials"),
        ("TLS", "tls"),
        ("TIMEOUTS", "timeouts"),
        ("OUTPUT", "output"),
        ("ERRORS", "errors"),
    ):
        out += [f".SH {title}", PROSE[key].strip()]
    out.append(".SH EXIT STATUS")
    for code, text in DESCRIPTIONS.items():
        out += [".TP", f"\\fB{int(code)}\\fR", esc(text)]
    out.append(".SH ENVIRONMENT")
    for name, text in ENVIRONMENT:
        out += [".TP", f"\\fB{name}\\fR", text]
    out += [
        ".SH FILES",
        ".TP",
        "\\fI~/.config/mqadmin/contexts.json\\fR",
        "Contexts (see CONTEXTS).",
        ".TP",
        "\\fI$ROCKETMQ_HOME/conf/tools.yml\\fR",
        "ACL credentials of the Java tool.",
        ".SH EXAMPLES",
        EXAMPLES.strip(),
        ".SH SEE ALSO",
        "The Apache RocketMQ documentation, https://rocketmq.apache.org/docs/",
        "",
    ]
    return "\n".join(out)
