"""Prints the requestedSchema that real Python servers generate for ordinary Pydantic
models, as one JSON object {case name: {"generator": ..., "schema": ...}}.

Run with the pinned venv (mcp 2.3.0, fastmcp 4.2.3, pydantic 2.x):

    .tools/venv/bin/python interop/py/gen_schemas.py > crates/core/tests/data/python-schemas.json

Three generators: the Python SDK's `ctx.elicit` (mcp.server.elicitation.render_elicitation_schema),
FastMCP's `ctx.elicit` (fastmcp.server.elicitation.get_elicitation_schema), and plain
`Model.model_json_schema()` (what a hand-written server passes as requestedSchema).
A generator that refuses a model is recorded as {"refused": reason}.
"""

import datetime
import enum
import json
import sys
import uuid
from typing import Literal, Optional, Union

from pydantic import BaseModel, Field

from fastmcp.server.elicitation import get_elicitation_schema
from mcp.server.elicitation import render_elicitation_schema


class Color(str, enum.Enum):
    RED = "red"
    GREEN = "green"


class Optionals(BaseModel):
    nickname: Optional[str] = None
    age: Optional[int] = None
    when: Optional[datetime.date] = None


class Literals(BaseModel):
    size: Literal["s", "m", "l"] = "m"
    level: Literal[1, 2, 3] = 2
    agree: Literal[True]


class Enums(BaseModel):
    color: Color = Color.RED


class Dates(BaseModel):
    day: datetime.date
    at: datetime.time
    stamp: datetime.datetime
    ident: uuid.UUID


class ConstrainedInts(BaseModel):
    positive: int = Field(gt=0)
    percent: int = Field(ge=0, le=100)
    below: int = Field(lt=10)
    even: int = Field(multiple_of=2)
    price: float = Field(gt=0, multiple_of=0.01)


class ConstrainedStrings(BaseModel):
    code: str = Field(pattern=r"^[A-Z]{3}$", min_length=3, max_length=3)
    word: str = Field(pattern=r"(?i)^hello$")
    named: str = Field(pattern=r"^(?P<year>\d{4})-\d{2}$")
    name: str = Field(min_length=1, max_length=40, examples=["Ada"])
    old: str = Field(default="x", deprecated=True)


class Sets(BaseModel):
    toppings: set[Literal["cheese", "ham", "olives"]] = Field(default_factory=set)


class Unions(BaseModel):
    amount: Union[int, str]
    ratio: Union[float, None] = None


class BadDefault(BaseModel):
    small: int = Field(default=50, le=10, validate_default=False)


MODELS = [Optionals, Literals, Enums, Dates, ConstrainedInts, ConstrainedStrings, Sets, Unions, BadDefault]

GENERATORS = {
    "mcp": render_elicitation_schema,
    "fastmcp": get_elicitation_schema,
    "pydantic": lambda m: m.model_json_schema(),
}


def main() -> None:
    out = {}
    for model in MODELS:
        for gen_name, gen in GENERATORS.items():
            key = f"{gen_name}/{model.__name__}"
            try:
                out[key] = {"generator": gen_name, "schema": gen(model)}
            except Exception as e:  # a generator that refuses the model
                out[key] = {"generator": gen_name, "refused": f"{type(e).__name__}: {e}"}
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
