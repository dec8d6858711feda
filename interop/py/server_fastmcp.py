"""Peer MCP server written with FastMCP 4.2.3 (`ctx.elicit` with ordinary Pydantic models), used to
test `mcp-elicit call`.

Usage: python server_fastmcp.py (--stdio | --port PORT)
  --port PORT  Streamable HTTP on http://127.0.0.1:PORT/mcp (PORT must be a free port).

Tools (each returns {"action", "data"} as JSON text; accepted data was validated by Pydantic):
  order    a model with an Enum, a Literal, a date, constrained ints (ge/le, gt) and strings
           (min_length, pattern) and a set[Literal] (uniqueItems).
  confirm  a plain boolean question (FastMCP wraps scalar types in {"value": ...}).
"""

from __future__ import annotations

import argparse
import datetime
import enum
import json
from typing import Literal

from fastmcp import Context, FastMCP
from pydantic import BaseModel, Field

parser = argparse.ArgumentParser()
group = parser.add_mutually_exclusive_group(required=True)
group.add_argument("--stdio", action="store_true")
group.add_argument("--port", type=int)
ARGS = parser.parse_args()

mcp = FastMCP("interop-fastmcp-server")


class Color(str, enum.Enum):
    RED = "red"
    GREEN = "green"
    BLUE = "blue"


class Order(BaseModel):
    customer: str = Field(min_length=2, max_length=40, description="Who orders")
    color: Color = Color.GREEN
    size: Literal["s", "m", "l"] = "m"
    deliver_on: datetime.date
    quantity: int = Field(default=1, ge=1, le=20)
    priority: int = Field(default=2, gt=0, le=5)
    code: str = Field(default="ENG-42", pattern=r"^[A-Z]{3}-\d{2}$")
    extras: set[Literal["gift", "express", "insured"]] = {"gift"}


def _dump(data: object) -> object:
    if isinstance(data, BaseModel):
        out = data.model_dump(mode="json")
        for key, value in out.items():
            if isinstance(value, list):
                out[key] = sorted(value)
        return out
    return data


@mcp.tool(description="Places an order after asking its details")
async def order(ctx: Context) -> str:
    result = await ctx.elicit("Order details", response_type=Order)
    return json.dumps({"action": result.action, "data": _dump(getattr(result, "data", None))})


@mcp.tool(description="Asks a yes/no question")
async def confirm(ctx: Context) -> str:
    result = await ctx.elicit("Proceed?", response_type=bool)
    return json.dumps({"action": result.action, "data": getattr(result, "data", None)})


if __name__ == "__main__":
    if ARGS.stdio:
        mcp.run("stdio", show_banner=False)
    else:
        mcp.run("http", host="127.0.0.1", port=ARGS.port, show_banner=False)
