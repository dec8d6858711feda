"""Peer MCP server written with the Python SDK (`mcp` 2.3) the way its docs teach for 2026-07-28,
used to test `mcp-elicit call` on both revisions.

Usage: python server_2026.py (--stdio | --port PORT)
  --port PORT  Streamable HTTP on http://127.0.0.1:PORT/mcp (PORT must be a free port).

Resolver style (`Annotated[T, Resolve(fn)]` whose resolver returns `Elicit(message, Model)`): on
2026-07-28 the SDK answers with an InputRequiredResult and resumes on the retry; on 2025-11-25 it
sends elicitation/create mid-call. One handler serves both revisions.
  profile        one form from a Pydantic model (Optional, Literal, date, constrained ints and strings
                 with gt/ge/le, a pattern, set[Literal]); returns {"protocol", "profile"}.
  two_questions  two resolvers: on 2026-07-28 one round with two input requests; returns
                 {"protocol", "name", "size"}.
  wizard         a resolver that depends on another: two rounds, the second question depends on the
                 first answer; returns {"plan", "details"}.
  maybe          ElicitationResult[T]: reports the action (accept, decline, cancel) and the content.
`ctx.elicit` style (2025-11-25 only: the SDK sends a server-to-client request):
  ctx_profile    the same Pydantic model through ctx.elicit; returns {"action", "profile"}.
Every accepted answer has been validated by Pydantic against the model before the tool sees it.
"""

from __future__ import annotations

import argparse
import datetime
import json
from typing import Annotated, Literal, Optional

from pydantic import BaseModel, Field

from mcp.server.mcpserver import Context, Elicit, ElicitationResult, MCPServer, Resolve

parser = argparse.ArgumentParser()
group = parser.add_mutually_exclusive_group(required=True)
group.add_argument("--stdio", action="store_true")
group.add_argument("--port", type=int)
ARGS = parser.parse_args()

app = MCPServer(name="interop-py-2026-server", version="1.0.0")


class Profile(BaseModel):
    name: str = Field(min_length=2, max_length=40, description="Your name")
    nickname: Optional[str] = None
    size: Literal["s", "m", "l"] = "m"
    birthday: datetime.date
    age: int = Field(default=30, ge=0, le=150)
    rating: int = Field(default=3, gt=0, le=5)
    code: str = Field(default="ENG-42", pattern=r"^[A-Z]{3}-\d{2}$")
    toppings: set[Literal["cheese", "ham", "olive"]] = {"cheese"}


class Name(BaseModel):
    name: str = Field(min_length=1, description="Who is this for?")


class Size(BaseModel):
    size: Literal["s", "m", "l"] = "m"
    count: int = Field(default=1, ge=1, le=9)


class Plan(BaseModel):
    plan: Literal["basic", "pro"] = "basic"


class Details(BaseModel):
    seats: int = Field(default=1, ge=1, le=50)
    team: str = Field(default="", max_length=40)


def _dump(model: BaseModel) -> dict:
    data = model.model_dump(mode="json")
    for key, value in data.items():
        if isinstance(value, list):
            data[key] = sorted(value)
    return data


def ask_profile() -> Elicit[Profile]:
    return Elicit("Tell us about yourself", Profile)


def ask_name() -> Elicit[Name]:
    return Elicit("Who is the order for?", Name)


def ask_size() -> Elicit[Size]:
    return Elicit("Which size, and how many?", Size)


def ask_plan() -> Elicit[Plan]:
    return Elicit("Step 1: choose a plan", Plan)


def ask_details(plan: Annotated[Plan, Resolve(ask_plan)]) -> Elicit[Details]:
    return Elicit(f"Step 2: details for the {plan.plan} plan", Details)


@app.tool(description="Asks for a profile (resolver style, both revisions)")
async def profile(p: Annotated[Profile, Resolve(ask_profile)]) -> str:
    return json.dumps({"profile": _dump(p)})


@app.tool(description="Asks two questions at once (one round on 2026-07-28)")
async def two_questions(
    who: Annotated[Name, Resolve(ask_name)], size: Annotated[Size, Resolve(ask_size)]
) -> str:
    return json.dumps({"name": _dump(who), "size": _dump(size)})


@app.tool(description="Two rounds: the second question depends on the first answer")
async def wizard(
    plan: Annotated[Plan, Resolve(ask_plan)], details: Annotated[Details, Resolve(ask_details)]
) -> str:
    return json.dumps({"plan": _dump(plan), "details": _dump(details)})


@app.tool(description="Reports the action the user took")
async def maybe(outcome: Annotated[ElicitationResult[Name], Resolve(ask_name)]) -> str:
    data = getattr(outcome, "data", None)
    return json.dumps({"action": outcome.action, "content": _dump(data) if data is not None else None})


@app.tool(description="Asks for a profile with ctx.elicit (2025-11-25 only)")
async def ctx_profile(ctx: Context) -> str:
    result = await ctx.elicit("Tell us about yourself", Profile)
    data = getattr(result, "data", None)
    return json.dumps({"action": result.action, "profile": _dump(data) if data is not None else None})


if __name__ == "__main__":
    if ARGS.stdio:
        app.run("stdio")
    else:
        app.run("streamable-http", host="127.0.0.1", port=ARGS.port)
