"""Peer MCP client written with the Python SDK (`mcp` 2.3), used to test `mcp-elicit serve`.

Usage: python client.py --scenario SCENARIO --tool NAME [options] (--url URL | -- CMD [ARGS...])
Same scenarios and options as interop/ts/client.mjs (form, url, url-required, capabilities; --args, --action,
--answers, --expect-kinds, --visit, --no-wait-complete, --timeout), except --modes: the Python SDK always
declares both form and URL mode when an elicitation callback is set.
It connects with mode="legacy" (the 2025-11-25 initialize handshake; the SDK's default negotiates 2026-07-28).
Prints one JSON summary line; exit 0 when every assertion held, 1 otherwise, 2 on a hang.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

import anyio
import mcp.types as types
from mcp import Client, MCPError, StdioServerParameters, UrlElicitationRequiredError

ALL_KINDS = ["string", "pattern", "format", "integer", "number", "boolean", "enum", "titled-enum", "multi", "titled-multi"]
URL_ELICITATION_REQUIRED = -32042

summary: dict[str, Any] = {
    "peer": "py-client",
    "scenario": None,
    "transport": None,
    "ok": False,
    "failures": [],
    "elicitations": [],
    "completions": [],
    "result": None,
    "error": None,
    "retryResult": None,
}


def fail(msg: str) -> None:
    summary["failures"].append(msg)


def finish(code: int) -> None:
    summary["ok"] = not summary["failures"] and code == 0
    sys.stdout.write(json.dumps(summary) + "\n")
    sys.stdout.flush()
    sys.exit(0 if summary["ok"] else (code or 1))


def parse_args(argv: list[str]) -> argparse.Namespace:
    command: list[str] = []
    if "--" in argv:
        i = argv.index("--")
        argv, command = argv[:i], argv[i + 1 :]
    p = argparse.ArgumentParser()
    p.add_argument("--scenario", required=True, choices=["form", "url", "url-required", "capabilities"])
    p.add_argument("--tool", required=True)
    p.add_argument("--url")
    p.add_argument("--args", type=json.loads, default={})
    p.add_argument("--action", choices=["accept", "decline", "cancel"], default="accept")
    p.add_argument("--answers", type=json.loads, default={})
    p.add_argument("--expect-kinds", default=",".join(ALL_KINDS))
    p.add_argument("--visit", choices=["none", "get", "post"], default="none")
    p.add_argument("--no-wait-complete", action="store_true")
    p.add_argument("--timeout", type=float, default=30)
    o = p.parse_args(argv)
    o.command = command
    o.expect_kinds = [k for k in o.expect_kinds.split(",") if k]
    if (o.url is None) == (not command):
        p.error("give --url URL or -- CMD ARGS")
    return o


def kinds_of(prop: dict[str, Any]) -> list[str]:
    t = prop.get("type")
    if t == "string":
        if isinstance(prop.get("oneOf"), list):
            return ["titled-enum"]
        if isinstance(prop.get("enum"), list):
            return ["legacy-enum" if isinstance(prop.get("enumNames"), list) else "enum"]
        kinds = ["string"]
        if isinstance(prop.get("pattern"), str):
            kinds.append("pattern")
        if isinstance(prop.get("format"), str):
            kinds.append("format")
        return kinds
    if t == "array":
        items = prop.get("items") or {}
        if isinstance(items.get("anyOf"), list):
            return ["titled-multi"]
        if isinstance(items.get("enum"), list):
            return ["multi"]
        return []
    if t in ("integer", "number", "boolean"):
        return [t]
    return []


def answer_form(params: dict[str, Any], o: argparse.Namespace) -> types.ElicitResult:
    schema = params.get("requestedSchema")
    if not isinstance(schema, dict) or schema.get("type") != "object" or not isinstance(schema.get("properties"), dict):
        fail("form request without an object requestedSchema")
        return types.ElicitResult(action="cancel")
    props: dict[str, Any] = schema["properties"]
    seen: set[str] = set()
    for name, prop in props.items():
        seen.update(kinds_of(prop))
        pattern = prop.get("pattern")
        if isinstance(pattern, str):
            try:
                regex = re.compile(pattern)
            except re.error as e:
                fail(f"property {name}: pattern {pattern!r} is not a valid regex: {e}")
                continue
            sample = o.answers.get(name, prop.get("default"))
            if isinstance(sample, str) and not regex.search(sample):
                fail(f"property {name}: value {sample!r} does not match pattern {pattern}")
    for k in o.expect_kinds:
        if k not in seen:
            fail(f"form request has no field of kind {k} (has: {','.join(sorted(seen))})")
    if o.action != "accept":
        return types.ElicitResult(action=o.action)
    content: dict[str, Any] = {}
    for name, prop in props.items():
        if name in o.answers:
            content[name] = o.answers[name]
        elif "default" in prop:
            content[name] = prop["default"]
    for name in schema.get("required") or []:
        if name not in content:
            fail(f"no answer for required property {name}")
    return types.ElicitResult(action="accept", content=content)


def is_loopback(url: str) -> bool:
    try:
        u = urllib.parse.urlsplit(url)
    except ValueError:
        return False
    return u.scheme == "http" and u.hostname in ("127.0.0.1", "localhost", "::1")


async def visit(url: str, o: argparse.Namespace) -> None:
    """Plays the user: opens the page (GET) and, with --visit post, submits it (POST to the same URL)."""
    if o.visit == "none":
        return
    visited = summary.setdefault("visited", [])
    if not is_loopback(url):
        visited.append({"url": url, "skipped": "not a loopback http URL"})
        return

    # The page's form as a browser submits it: its hidden fields (the reference server's
    # demo page carries a CSRF token, and a post without it is refused with 403).
    page = {"fields": b""}

    def request(method: str) -> int:
        data = page["fields"] if method == "POST" else None
        req = urllib.request.Request(url, method=method, data=data)
        if method == "POST":
            req.add_header("Content-Type", "application/x-www-form-urlencoded")
        try:
            with urllib.request.urlopen(req, timeout=10) as res:  # noqa: S310 (loopback only, checked above)
                body = res.read().decode("utf-8", "replace")
                if method == "GET":
                    hidden = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', body)
                    page["fields"] = urllib.parse.urlencode(hidden).encode()
                return res.status
        except urllib.error.HTTPError as e:
            return e.code

    for method in ["GET", "POST"] if o.visit == "post" else ["GET"]:
        try:
            status = await anyio.to_thread.run_sync(request, method)
        except OSError as e:
            fail(f"{method} {url} failed: {e}")
            continue
        visited.append({"url": url, "method": method, "status": status})
        if status >= 400:
            fail(f"{method} {url} answered {status}")


def dump(model: Any) -> Any:
    return model.model_dump(by_alias=True, exclude_none=True, mode="json") if model is not None else None


async def run(o: argparse.Namespace) -> None:
    completed: dict[str, anyio.Event] = {}

    def completion_event(eid: str) -> anyio.Event:
        return completed.setdefault(eid, anyio.Event())

    async def on_elicit(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult | types.ErrorData:
        raw = params.model_dump(by_alias=True, exclude_none=True, mode="json")
        summary["elicitations"].append(raw)
        mode = raw.get("mode", "form")
        if mode == "form":
            if o.scenario != "form":
                fail(f"unexpected form elicitation in scenario {o.scenario}")
            return answer_form(raw, o)
        if o.scenario != "url":
            fail(f"unexpected URL elicitation in scenario {o.scenario}")
        if not isinstance(raw.get("elicitationId"), str) or not raw["elicitationId"]:
            fail("URL elicitation without elicitationId")
        if not isinstance(raw.get("message"), str):
            fail("URL elicitation without message")
        if not urllib.parse.urlsplit(str(raw.get("url", ""))).scheme:
            fail(f"URL elicitation with an invalid url {raw.get('url')!r}")
        return types.ElicitResult(action=o.action)

    async def on_message(message: Any) -> None:
        if isinstance(message, types.ElicitCompleteNotification):
            eid = message.params.elicitation_id
            summary["completions"].append(eid)
            completion_event(eid).set()

    server: Any = o.url if o.url else StdioServerParameters(command=o.command[0], args=o.command[1:])
    async with Client(server, mode="legacy", elicitation_callback=on_elicit, message_handler=on_message) as client:

        async def call() -> types.CallToolResult:
            return await client.call_tool(o.tool, o.args)

        try:
            if o.scenario == "url-required":
                try:
                    summary["result"] = dump(await call())
                    fail("expected error -32042, got a result")
                except MCPError as e:
                    summary["error"] = {"code": e.code, "message": e.message, "data": e.data}
                    if e.code != URL_ELICITATION_REQUIRED:
                        fail(f"error code {e.code}, expected {URL_ELICITATION_REQUIRED}")
                    else:
                        typed = UrlElicitationRequiredError.from_error(e.error)
                        if not typed.elicitations:
                            fail("UrlElicitationRequiredError without elicitations")
                        for el in typed.elicitations:
                            await visit(el.url, o)
                        for el in typed.elicitations:
                            await completion_event(el.elicitation_id).wait()
                        retry = await call()
                        summary["retryResult"] = dump(retry)
                        if retry.is_error:
                            fail("retry after completion still failed")
            else:
                summary["result"] = dump(await call())
                if o.scenario == "form" and not any(
                    e.get("mode", "form") == "form" for e in summary["elicitations"]
                ):
                    fail("no form elicitation received")
                if o.scenario == "url":
                    urls = [e for e in summary["elicitations"] if e.get("mode") == "url"]
                    if not urls:
                        fail("no URL elicitation received")
                    # The user finishes the page once the call has answered (consent recorded).
                    if o.action == "accept":
                        for e in urls:
                            await visit(str(e.get("url")), o)
                    if not o.no_wait_complete and o.action == "accept":
                        for e in urls:
                            await completion_event(e["elicitationId"]).wait()
        except MCPError as e:
            if summary["error"] is None:
                summary["error"] = {"code": e.code, "message": e.message, "data": e.data}
            fail(f"call failed: {e.message}")
        except ValueError as e:
            fail(f"malformed -32042 data: {e}")


def main() -> None:
    o = parse_args(sys.argv[1:])
    summary["scenario"] = o.scenario
    summary["transport"] = "http" if o.url else "stdio"

    async def guarded() -> int:
        with anyio.move_on_after(o.timeout) as scope:
            await run(o)
        if scope.cancelled_caught:
            fail(f"timed out after {o.timeout}s")
            return 2
        return 0

    try:
        code = asyncio.run(guarded())
    except Exception as e:  # noqa: BLE001 (report any crash in the summary)
        fail(f"{type(e).__name__}: {e}")
        code = 1
    finish(code)


if __name__ == "__main__":
    main()
