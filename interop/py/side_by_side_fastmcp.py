"""docs/side-by-side.md: the quickstart's two tools in FastMCP 4.2.3.

Usage: python side_by_side_fastmcp.py --port PORT   (Streamable HTTP on http://127.0.0.1:PORT/mcp)
"""

import argparse
import datetime
import secrets
from typing import Literal

from fastmcp import Context, FastMCP
from pydantic import BaseModel, Field
from starlette.requests import Request
from starlette.responses import HTMLResponse

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
ARGS = parser.parse_args()
BASE = f"http://127.0.0.1:{ARGS.port}"

mcp = FastMCP("side-by-side")
linked: set[str] = set()
pending: dict[str, object] = {}


class Booking(BaseModel):
    party_size: int = Field(ge=1, le=12, description="How many people")
    date: datetime.date = Field(description="Which day")
    seating: Literal["Indoor", "Terrace"]


@mcp.tool(description="Books a table")
async def book_table(ctx: Context) -> str:
    result = await ctx.elicit("Book a table", response_type=Booking)
    if result.action != "accept":
        return "Nothing booked"
    b = result.data
    return f"Table for {b.party_size} on {b.date}, {b.seating}"


@mcp.tool(description="Links your calendar")
async def link_calendar(ctx: Context) -> str:
    if "local" in linked:
        return "Your calendar is linked"
    eid = secrets.token_hex(16)
    pending[eid] = ctx.session
    url = f"{BASE}/callback?elicitationId={eid}"
    result = await ctx.session.elicit_url("Link your calendar", url, eid)
    return "Open the page, then call again" if result.action == "accept" else "Not linked"


@mcp.custom_route("/callback", methods=["GET", "POST"])
async def callback(request: Request) -> HTMLResponse:
    if request.method == "GET":
        return HTMLResponse("<form method=post><button>Link my calendar</button></form>")
    eid = request.query_params.get("elicitationId", "")
    session = pending.pop(eid, None)
    if session is None:
        return HTMLResponse("Nothing to link")
    linked.add("local")
    await session.send_elicit_complete(eid)
    return HTMLResponse("Calendar linked: go back to your MCP client")


if __name__ == "__main__":
    mcp.run("http", host="127.0.0.1", port=ARGS.port, show_banner=False)
