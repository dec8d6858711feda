"""Peer MCP server written with the Python SDK (`mcp` 2.3), used to test `mcp-elicit call`.

Usage: python server.py (--stdio | --port PORT) [--complete-delay-ms MS]
  --port PORT  Streamable HTTP on http://127.0.0.1:PORT/mcp (PORT must be a free port).

Same tools as interop/ts/server.mjs:
  all_kinds            form elicitation covering every field kind; an accepted answer is validated
                       against the schema (jsonschema, formats checked); returns {"action", "content"}.
  url_flow             {"url"?} URL elicitation (to `url` if given, even a hostile one); on accept sends
                       notifications/elicitation/complete, then returns.
  url_required         -32042 (UrlElicitationRequiredError) until completed; the completion notification
                       follows after --complete-delay-ms (default 300) on the standalone stream.
  undeclared_mode      sends an elicitation of `mode` ("url"|"form") whatever the client declared and
                       reports {"sent", "error": {"code", "message"}} or {"sent", "result"}.
  client_capabilities  the capabilities the client declared.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import pathlib
import uuid
from typing import Any

import jsonschema
import mcp.types as types
from mcp import MCPError, UrlElicitationRequiredError
from mcp.server.mcpserver import Context, MCPServer
from mcp.shared.message import ServerMessageMetadata

SCHEMA = json.loads((pathlib.Path(__file__).resolve().parent.parent / "all-kinds-schema.json").read_text())

parser = argparse.ArgumentParser()
group = parser.add_mutually_exclusive_group(required=True)
group.add_argument("--stdio", action="store_true")
group.add_argument("--port", type=int)
parser.add_argument("--complete-delay-ms", type=int, default=300)
ARGS = parser.parse_args()

app = MCPServer(name="interop-py-server", version="1.0.0")

# url_required state, for the whole process (the SDK hands each request its own session wrapper, so
# there is no stable per-connection key; tests start one server per client).
_required: dict[str, Any] = {"id": None, "completed": False}
_background: set[asyncio.Task[None]] = set()


def _text(value: Any) -> str:
    return json.dumps(value)


@app.tool(description="Asks for a profile with every form field kind")
async def all_kinds(ctx: Context) -> str:
    result = await ctx.session.elicit_form(
        "Please complete your profile", SCHEMA, related_request_id=ctx.request_context.request_id
    )
    if result.action == "accept":
        validator = jsonschema.Draft202012Validator(SCHEMA, format_checker=jsonschema.FormatChecker())
        errors = sorted(e.message for e in validator.iter_errors(result.content or {}))
        if errors:
            raise MCPError(code=-32602, message="answer does not match the requested schema: " + "; ".join(errors))
    return _text({"action": result.action, "content": result.content})


@app.tool(description="Sends the user to a URL (default https://example.com/connect/ID, or `url`), then reports completion")
async def url_flow(ctx: Context, url: str | None = None) -> str:
    elicitation_id = str(uuid.uuid4())
    related = ctx.request_context.request_id
    result = await ctx.session.elicit_url(
        "Connect your example.com account",
        url or f"https://example.com/connect/{elicitation_id}",
        elicitation_id,
        related_request_id=related,
    )
    completed = False
    if result.action == "accept":
        await ctx.session.send_elicit_complete(elicitation_id, related_request_id=related)
        completed = True
    return _text({"action": result.action, "elicitationId": elicitation_id, "completed": completed})


@app.tool(description="Requires a URL elicitation (-32042) before it succeeds")
async def url_required(ctx: Context) -> str:
    session = ctx.session
    state = _required
    if state["completed"]:
        return _text({"authorized": True, "elicitationId": state["id"]})
    if state["id"] is None:
        state["id"] = str(uuid.uuid4())

        async def complete_later() -> None:
            await asyncio.sleep(ARGS.complete_delay_ms / 1000)
            state["completed"] = True
            await session.send_elicit_complete(state["id"])

        task = asyncio.get_running_loop().create_task(complete_later())
        _background.add(task)
        task.add_done_callback(_background.discard)
    raise UrlElicitationRequiredError(
        [
            types.ElicitRequestURLParams(
                message="Authorize access to your example.com files",
                url=f"https://example.com/authorize/{state['id']}",
                elicitation_id=state["id"],
            )
        ]
    )


@app.tool(description="Sends an elicitation of the given mode even if the client did not declare it")
async def undeclared_mode(ctx: Context, mode: str = "url") -> str:
    if mode == "url":
        params: types.ElicitRequestParams = types.ElicitRequestURLParams(
            message="Open this page", url="https://example.com/undeclared", elicitation_id=str(uuid.uuid4())
        )
    else:
        params = types.ElicitRequestFormParams(
            message="Your name?", requested_schema={"type": "object", "properties": {"name": {"type": "string"}}}
        )
    try:
        result = await ctx.session.send_request(
            types.ElicitRequest(params=params),
            types.ElicitResult,
            metadata=ServerMessageMetadata(related_request_id=ctx.request_context.request_id),
        )
    except MCPError as e:
        return _text({"sent": mode, "error": {"code": e.code, "message": e.message}})
    return _text({"sent": mode, "result": result.model_dump(by_alias=True, exclude_none=True)})


@app.tool(description="Returns the client capabilities")
async def client_capabilities(ctx: Context) -> str:
    caps = ctx.client_capabilities
    return _text({"capabilities": caps.model_dump(by_alias=True, exclude_none=True) if caps else None})


if __name__ == "__main__":
    if ARGS.stdio:
        app.run("stdio")
    else:
        app.run("streamable-http", host="127.0.0.1", port=ARGS.port)
