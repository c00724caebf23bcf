"""A small MCP server for the tests, built on the official SDK (`MCPServer`, FastMCP's
name in mcp 2.x): over stdio by default, or streamable HTTP / legacy SSE on 127.0.0.1.

    python tests/servers/mcp_server.py                     stdio
    python tests/servers/mcp_server.py --http READY_FILE   streamable HTTP on a free port
    python tests/servers/mcp_server.py --sse READY_FILE    legacy SSE on a free port
    python tests/servers/mcp_server.py --crash             exits at once (a server that fails)

Over HTTP the URL is written to READY_FILE once the port listens. `--name` names the
server, `--pid-file` records the process id of each start (tests kill it mid-session,
or count a crashing server's starts), `--state-dir` is where `add_tool` leaves a mark
so a restarted server keeps the tools it was given; `--odd-tools` adds two tools whose
names clash once cleaned; `--no-resources` serves no resources (nor says it could): a
server with tools only.
"""

import argparse
import asyncio
import base64
import os
import socket
import sys
from pathlib import Path

#: A 1x1 red PNG.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


def without_resources(server) -> None:
    """The server no longer handles resource requests, so it declares no resources."""
    handlers = server._lowlevel_server._request_handlers  # noqa: SLF001 - test server
    for method in ("resources/list", "resources/templates/list", "resources/read"):
        handlers.pop(method, None)


def build(name: str, state_dir: Path | None, odd_tools: bool = False):
    from mcp.server.mcpserver import Context, Image, MCPServer

    server = MCPServer(name, version="1.2.3", instructions="A server for cc's tests.")

    @server.tool(structured_output=False, description="Echo the text back, in upper case.")
    def shout(text: str) -> str:
        return text.upper()

    @server.tool(description="Add two numbers.")
    def add(a: int, b: int) -> dict[str, int]:
        return {"sum": a + b}

    @server.tool(structured_output=False, description="A small red picture.")
    def picture() -> Image:
        return Image(data=PNG, format="png")

    @server.tool(structured_output=False, description="Always fails.")
    def fail() -> str:
        raise ValueError("the fail tool failed on purpose")

    @server.tool(structured_output=False, description="Sleep, then answer.")
    async def slow(seconds: float) -> str:
        await asyncio.sleep(seconds)
        return f"slept {seconds}"

    @server.tool(structured_output=False, description="This server's process id.")
    def pid() -> str:
        return str(os.getpid())

    @server.tool(structured_output=False, description="Print many lines.")
    def flood(lines: int) -> str:
        return "\n".join(f"line {i} of the flood, with some words to make it long"
                         for i in range(lines))

    @server.tool(structured_output=False, description="A header of the request (HTTP only).")
    def header(name: str, ctx: Context) -> str:
        return (ctx.headers or {}).get(name.lower(), "(none)")

    @server.tool(structured_output=False, description="The client's roots (2025-era sessions).")
    async def roots(ctx: Context) -> str:
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            listed = await ctx.session.list_roots()
        return "\n".join(str(root.uri) for root in listed.roots)

    def extra() -> str:
        return "the extra tool answers"

    @server.tool(structured_output=False, description="Add the tool `extra` and tell the client.")
    async def add_tool(ctx: Context) -> str:
        server.add_tool(extra, description="A tool added at run time.", structured_output=False)
        if state_dir is not None:
            (state_dir / f"{name}.extra").write_text("1")
        await ctx.notify_tools_changed()  # 2026-era clients listen for it
        try:  # earlier clients take the notification as such
            await ctx.session.send_tool_list_changed()
        except Exception:  # noqa: BLE001 - not every session has it
            pass
        return "added"

    if state_dir is not None and (state_dir / f"{name}.extra").exists():
        server.add_tool(extra, description="A tool added at run time.", structured_output=False)

    if odd_tools:
        # Two tools whose names clean to the same `mcp__…` name (a bad schema is
        # legacy_mcp_server.py's: this SDK refuses to send one).
        server.add_tool(lambda: "dotted", name="dot.name", description="Dotted.",
                        structured_output=False)
        server.add_tool(lambda: "underscored", name="dot_name", description="Underscored.",
                        structured_output=False)

    @server.resource("note://readme", name="readme", description="The read-me note.",
                     mime_type="text/plain")
    def readme() -> str:
        return "the note's text"

    @server.resource("note://picture", name="picture", description="A small red picture.",
                     mime_type="image/png")
    def picture_resource() -> bytes:
        return PNG

    @server.resource("note://archive", name="archive", description="Some binary data.",
                     mime_type="application/octet-stream")
    def archive() -> bytes:
        return bytes(range(256))

    @server.resource("note://topic/{name}", name="topic", description="A note on a topic.",
                     mime_type="text/plain")
    def topic(name: str) -> str:
        return f"a note on {name}"

    @server.prompt(description="Ask for a review of a topic.")
    def review(topic: str) -> str:
        return f"Please review {topic} carefully."

    @server.prompt(description="Compare two things, with an optional focus.")
    def compare(first: str, second: str, focus: str | None = None) -> str:
        on = f", focusing on {focus}" if focus else ""
        return f"Compare {first} with {second}{on}."

    @server.prompt(description="A conversation to start from, with a picture and a note.")
    def briefing() -> list:
        from mcp.server.mcpserver.prompts.base import AssistantMessage, UserMessage
        from mcp_types import EmbeddedResource, TextResourceContents

        note = EmbeddedResource(type="resource", resource=TextResourceContents(
            uri="note://readme", mime_type="text/plain", text="the note's text"))
        return [UserMessage("Here is the briefing."), UserMessage(Image(data=PNG, format="png")),
                UserMessage(note), AssistantMessage("Understood; what next?"),
                UserMessage("Summarise it.")]

    return server


def serve_http(server, ready: Path, sse: bool) -> None:
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    app = server.sse_app() if sse else server.streamable_http_app()
    config = uvicorn.Config(app, log_level="warning")
    path = "/sse" if sse else "/mcp"

    async def run() -> None:
        uv = uvicorn.Server(config)
        task = asyncio.create_task(uv.serve(sockets=[sock]))
        while not uv.started and not task.done():
            await asyncio.sleep(0.01)
        tmp = ready.with_suffix(".tmp")
        tmp.write_text(f"http://127.0.0.1:{port}{path}")
        tmp.replace(ready)
        await task

    asyncio.run(run())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--name", default="demo")
    parser.add_argument("--http", type=Path)
    parser.add_argument("--sse", type=Path)
    parser.add_argument("--crash", action="store_true")
    parser.add_argument("--pid-file", type=Path)
    parser.add_argument("--state-dir", type=Path)
    parser.add_argument("--odd-tools", action="store_true")
    parser.add_argument("--no-resources", action="store_true")
    args = parser.parse_args()
    if args.pid_file:  # every start is recorded, a crashing one's too
        with args.pid_file.open("a") as f:
            f.write(f"{os.getpid()}\n")
    if args.crash:
        print("the server crashed on purpose", file=sys.stderr)
        sys.exit(3)
    server = build(args.name, args.state_dir, args.odd_tools)
    if args.no_resources:
        without_resources(server)
    if args.http or args.sse:
        serve_http(server, args.http or args.sse, sse=args.sse is not None)
    else:
        server.run()


if __name__ == "__main__":
    main()
