"""Peer MCP client on the 2026-07-28 revision, written with the Python SDK (`mcp` 2.3) on its defaults.

Used to test `mcp-elicit serve` with multi round-trip requests (SEP-2322): the server answers a
`tools/call` with an `InputRequiredResult`, the SDK's driver hands each embedded `elicitation/create`
to the elicitation callback (the key is `ctx.request_id`) and retries with `inputResponses` and the
echoed `requestState`, until the result is complete.

Usage: python client_2026.py --scenario SCENARIO --tool NAME [options] (--url URL | -- CMD [ARGS...])
  --scenario form         call TOOL through the SDK's own driver; the callback answers every form with
                          --answers over the schema defaults (or declines / cancels with --action)
             url          the same for URL mode: the callback records the request and, with --visit post,
                          plays the user's browser (GET, then POST the page) before it answers accept
             url-waiting  drive the rounds by hand: accept the URL request without visiting the page, expect
                          another InputRequiredResult (still waiting), finish the page, retry, expect the result
             tamper       drive the rounds by hand: answer the first round with a modified requestState
                          (several ways), expect -32602 each time, then the genuine state, expect the result
  --args JSON             tool arguments (default {})
  --action A              accept (default) | decline | cancel, for every request
  --key-actions JSON      {"inputRequestKey": "decline", ...}: per-key override of --action
  --answers JSON          form values by field name (over the schema defaults), for whichever form has the field
  --visit none|get|post   play the user on loopback http URLs only (default none)
  --sampling-roots        also declare sampling and roots (callbacks answer a fixed text and one root)
  --timeout SECS          hang guard for the whole run (default 30)
Prints one JSON summary line; exit 0 when every assertion held, 1 otherwise, 2 on a hang.
The summary records, per callback, the key, the round and the params exactly as the callback got them,
and per wire leg what was sent (keys answered, whether a requestState was echoed) and what came back.
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
from mcp import Client, MCPError, StdioServerParameters

INVALID_PARAMS = -32602

summary: dict[str, Any] = {
    "peer": "py-client-2026",
    "scenario": None,
    "transport": None,
    "protocolVersion": None,
    "ok": False,
    "failures": [],
    "elicitations": [],
    "legs": [],
    "visited": [],
    "result": None,
    "error": None,
    "tampered": [],
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
    p.add_argument("--scenario", required=True, choices=["form", "url", "url-waiting", "tamper"])
    p.add_argument("--tool", required=True)
    p.add_argument("--url")
    p.add_argument("--args", type=json.loads, default={})
    p.add_argument("--action", choices=["accept", "decline", "cancel"], default="accept")
    p.add_argument("--key-actions", type=json.loads, default={})
    p.add_argument("--answers", type=json.loads, default={})
    p.add_argument("--visit", choices=["none", "get", "post"], default="none")
    p.add_argument("--sampling-roots", action="store_true")
    p.add_argument("--timeout", type=float, default=30)
    o = p.parse_args(argv)
    o.command = command
    if (o.url is None) == (not command):
        p.error("give --url URL or -- CMD ARGS")
    return o


def dump(model: Any) -> Any:
    return model.model_dump(by_alias=True, exclude_none=True, mode="json") if model is not None else None


def is_loopback(url: str) -> bool:
    try:
        u = urllib.parse.urlsplit(url)
    except ValueError:
        return False
    return u.scheme == "http" and u.hostname in ("127.0.0.1", "localhost", "::1")


async def visit(url: str, how: str) -> None:
    """Plays the user: opens the page (GET) and, with `post`, submits it (POST to the same URL)."""
    if how == "none":
        return
    if not is_loopback(url):
        summary["visited"].append({"url": url, "skipped": "not a loopback http URL"})
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

    for method in ["GET", "POST"] if how == "post" else ["GET"]:
        try:
            status = await anyio.to_thread.run_sync(request, method)
        except OSError as e:
            fail(f"{method} {url} failed: {e}")
            continue
        summary["visited"].append({"url": url, "method": method, "status": status})
        if status >= 400:
            fail(f"{method} {url} answered {status}")


def answer_form(key: str, schema: Any, action: str, answers: dict[str, Any]) -> types.ElicitResult:
    if not isinstance(schema, dict) or schema.get("type") != "object" or not isinstance(schema.get("properties"), dict):
        fail(f"{key}: form request without an object requestedSchema")
        return types.ElicitResult(action="cancel")
    if action != "accept":
        return types.ElicitResult(action=action)
    content: dict[str, Any] = {}
    for name, prop in schema["properties"].items():
        if name in answers:
            content[name] = answers[name]
        elif isinstance(prop, dict) and "default" in prop:
            content[name] = prop["default"]
    for name in schema.get("required") or []:
        if name not in content:
            fail(f"{key}: no answer for required property {name}")
    return types.ElicitResult(action="accept", content=content)


class Peer:
    def __init__(self, o: argparse.Namespace) -> None:
        self.o = o
        self.round = 0  # the wire leg whose InputRequiredResult is being answered

    def action_for(self, key: str) -> str:
        return str(self.o.key_actions.get(key, self.o.action))

    async def on_elicit(self, ctx: Any, params: types.ElicitRequestParams) -> types.ElicitResult | types.ErrorData:
        key = str(ctx.request_id)
        raw = dump(params)
        entry: dict[str, Any] = {"key": key, "round": self.round, "params": raw}
        if isinstance(params, types.ElicitRequestFormParams):
            # The SDK keeps requestedSchema as the raw JSON dict: exactly what the server sent.
            entry["requestedSchema"] = params.requested_schema
        summary["elicitations"].append(entry)
        action = self.action_for(key)
        mode = raw.get("mode", "form")
        if mode == "form":
            return answer_form(key, raw.get("requestedSchema"), action, self.o.answers)
        if "elicitationId" in raw:
            fail(f"{key}: URL request carries elicitationId, removed in 2026-07-28")
        url = str(raw.get("url", ""))
        if not urllib.parse.urlsplit(url).scheme:
            fail(f"{key}: URL request with an invalid url {url!r}")
        if action == "accept" and self.o.scenario == "url":
            # Consent given: the user finishes the page before the client retries.
            await visit(url, self.o.visit)
        return types.ElicitResult(action=action)

    async def on_sampling(self, ctx: Any, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
        summary.setdefault("sampled", []).append(str(ctx.request_id))
        return types.CreateMessageResult(
            role="assistant", content=types.TextContent(type="text", text="Hello there!"), model="interop-peer"
        )

    async def on_roots(self, ctx: Any) -> types.ListRootsResult:
        summary.setdefault("rootsListed", []).append(str(ctx.request_id))
        return types.ListRootsResult(roots=[types.Root(uri="file:///tmp/interop-peer", name="interop")])

    def record_legs(self, client: Client) -> None:
        """Wraps the session's call_tool (what the SDK's driver calls for every wire leg) to record each leg."""
        session = client.session
        inner = session.call_tool

        async def recording(*args: Any, **kwargs: Any) -> Any:
            responses = kwargs.get("input_responses")
            leg: dict[str, Any] = {
                "answered": sorted(responses.keys()) if responses else [],
                "answers": {k: dump(v) if hasattr(v, "model_dump") else v for k, v in (responses or {}).items()},
                "echoedState": kwargs.get("request_state") is not None,
            }
            summary["legs"].append(leg)
            result = await inner(*args, **kwargs)
            self.round = len(summary["legs"])
            if isinstance(result, types.InputRequiredResult):
                leg["got"] = "input_required"
                leg["keys"] = sorted((result.input_requests or {}).keys())
                leg["hasState"] = result.request_state is not None
            else:
                leg["got"] = "complete"
            return result

        session.call_tool = recording  # type: ignore[method-assign]

    async def manual_leg(
        self, client: Client, responses: dict[str, Any] | None, state: str | None
    ) -> types.CallToolResult | types.InputRequiredResult:
        result = await client.session.call_tool(
            self.o.tool, self.o.args, input_responses=responses, request_state=state, allow_input_required=True
        )
        return result  # type: ignore[return-value]

    async def answer_round(self, client: Client, irr: types.InputRequiredResult) -> dict[str, Any]:
        """Answers every request of `irr` through the same callback the SDK's driver uses."""
        out: dict[str, Any] = {}
        for key, req in (irr.input_requests or {}).items():
            if not isinstance(req, types.ElicitRequest):
                fail(f"{key}: not an elicitation request")
                continue

            class Ctx:
                request_id = key

            out[key] = await self.on_elicit(Ctx(), req.params)
        return out

    async def run(self) -> None:
        o = self.o
        server: Any = o.url if o.url else StdioServerParameters(command=o.command[0], args=o.command[1:])
        extra: dict[str, Any] = {}
        if o.sampling_roots:
            extra = {"sampling_callback": self.on_sampling, "list_roots_callback": self.on_roots}
        async with Client(server, elicitation_callback=self.on_elicit, **extra) as client:
            summary["protocolVersion"] = client.protocol_version
            if client.protocol_version != "2026-07-28":
                fail(f"negotiated {client.protocol_version}, expected 2026-07-28 on the SDK's defaults")
            try:
                if o.scenario in ("form", "url"):
                    self.record_legs(client)
                    summary["result"] = dump(await client.call_tool(o.tool, o.args))
                elif o.scenario == "url-waiting":
                    await self.url_waiting(client)
                else:
                    await self.tamper(client)
            except MCPError as e:
                summary["error"] = {"code": e.code, "message": e.message, "data": e.data}

    async def url_waiting(self, client: Client) -> None:
        first = await self.manual_leg(client, None, None)
        if not isinstance(first, types.InputRequiredResult):
            fail("the first call did not answer input_required")
            summary["result"] = dump(first)
            return
        summary["legs"].append({"got": "input_required", "keys": sorted((first.input_requests or {}).keys())})
        urls = [
            str(r.params.url)
            for r in (first.input_requests or {}).values()
            if isinstance(r, types.ElicitRequest) and isinstance(r.params, types.ElicitRequestURLParams)
        ]
        if not urls:
            fail("no URL request in the first round")
            return
        self.round = 1
        answers = await self.answer_round(client, first)
        waiting = await self.manual_leg(client, answers, first.request_state)
        if not isinstance(waiting, types.InputRequiredResult):
            fail("the retry before the page was finished did not answer input_required (still waiting)")
            summary["result"] = dump(waiting)
            return
        summary["waiting"] = dump(waiting)
        summary["legs"].append({"got": "input_required", "keys": sorted((waiting.input_requests or {}).keys())})
        for url in urls:
            await visit(url, "post")
        # Answer again whatever the still-waiting round asks (the same consent), else just echo the state.
        self.round = 2
        again = await self.answer_round(client, waiting) if waiting.input_requests else None
        final = await self.manual_leg(client, again, waiting.request_state)
        if isinstance(final, types.InputRequiredResult):
            fail("the retry after the page was finished still answered input_required")
            summary["result"] = dump(final)
            return
        summary["legs"].append({"got": "complete"})
        summary["result"] = dump(final)

    async def tamper(self, client: Client) -> None:
        first = await self.manual_leg(client, None, None)
        if not isinstance(first, types.InputRequiredResult) or not first.request_state:
            fail("the first call did not answer input_required with a requestState")
            summary["result"] = dump(first)
            return
        answers = await self.answer_round(client, first)
        state = first.request_state
        mid = len(state) // 2
        flipped = state[:mid] + ("A" if state[mid] != "A" else "B") + state[mid + 1 :]
        variants = {
            "flipped": flipped,
            "truncated": state[: max(1, len(state) - 4)],
            "extended": state + "AAAA",
            "empty": "",
            "garbage": "not-a-state",
        }
        for name, bad in variants.items():
            entry: dict[str, Any] = {"variant": name}
            try:
                r = await self.manual_leg(client, answers, bad)
                entry["result"] = dump(r)
                fail(f"tampered state ({name}) was accepted")
            except MCPError as e:
                entry["error"] = {"code": e.code, "message": e.message, "data": e.data}
                if e.code != INVALID_PARAMS:
                    fail(f"tampered state ({name}): error {e.code}, expected {INVALID_PARAMS}")
            summary["tampered"].append(entry)
        # Nothing changed: the genuine state still completes the call.
        final = await self.manual_leg(client, answers, state)
        if isinstance(final, types.InputRequiredResult):
            fail("the genuine state after the tampered ones answered input_required")
        summary["result"] = dump(final)


def leaves(e: BaseException) -> list[BaseException]:
    """The innermost exceptions of an exception group (anyio task groups wrap what failed)."""
    if isinstance(e, BaseExceptionGroup):
        return [leaf for sub in e.exceptions for leaf in leaves(sub)]
    return [e]


def main() -> None:
    o = parse_args(sys.argv[1:])
    summary["scenario"] = o.scenario
    summary["transport"] = "http" if o.url else "stdio"

    async def guarded() -> int:
        with anyio.move_on_after(o.timeout) as scope:
            await Peer(o).run()
        if scope.cancelled_caught:
            fail(f"timed out after {o.timeout}s")
            return 2
        return 0

    try:
        code = asyncio.run(guarded())
    except Exception as e:  # noqa: BLE001 (report any crash in the summary)
        for leaf in leaves(e):
            fail(f"{type(leaf).__name__}: {leaf}")
        code = 1
    finish(code)


if __name__ == "__main__":
    main()
