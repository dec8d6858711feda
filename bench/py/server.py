"""Benchmark peer: the `test_elicitation` tool written with the Python SDK (`mcp` 2.3),
over Streamable HTTP with stateful sessions.

Usage: python server.py --port PORT     (listens on http://127.0.0.1:PORT/mcp)

test_elicitation(message): a form elicitation for `username` and `email` sent on the
call's own stream (related_request_id), the accepted answer checked against the schema
(jsonschema), then the text result "User response: action=<action>, content=<JSON>" —
the same tool and result as `mcp-elicit serve --conformance` and bench/ts/server.mjs.
"""

from __future__ import annotations

import argparse
import json

import jsonschema
from mcp import MCPError
from mcp.server.mcpserver import Context, MCPServer

SCHEMA = {
    "type": "object",
    "properties": {
        "username": {"type": "string", "description": "User's response"},
        "email": {"type": "string", "description": "User's email address"},
    },
    "required": ["username", "email"],
}
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
ARGS = parser.parse_args()

app = MCPServer(name="bench-py-server", version="1.0.0", log_level="WARNING")


@app.tool(description="Requests user input (username and email) from the client through elicitation/create.")
async def test_elicitation(ctx: Context, message: str) -> str:
    result = await ctx.session.elicit_form(message, SCHEMA, related_request_id=ctx.request_context.request_id)
    if result.action != "accept":
        return f"User response: action={result.action}"
    content = result.content or {}
    errors = sorted(e.message for e in VALIDATOR.iter_errors(content))
    if errors:
        raise MCPError(code=-32602, message="answer does not match the requested schema: " + "; ".join(errors))
    return "User response: action=accept, content=" + json.dumps(content, separators=(",", ":"))


if __name__ == "__main__":
    app.run("streamable-http", host="127.0.0.1", port=ARGS.port)
