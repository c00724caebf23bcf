"""A small MCP server for the tests, built on the official SDK (`MCPServer`, FastMCP's
name in mcp 2.x): over stdio by default, or streamable HTTP / legacy SSE on 127.0.0.1.

    python tests/servers/mcp_server.py                     stdio
    python tests/servers/mcp_server.py --http READY_FILE   streamable HTTP on a free port
    python tests/servers/mcp_server.py --sse READY_FILE    legacy SSE on a free port
    python tests/servers/mcp_server.py --crash             exits at once (a server that fails)

Over HTTP the URL is written to READY_FILE once the port listens. `--name` names the
server, `--pid-file` records the process id of each start (tests kill it mid-session,
or count a crashing server's starts), `--state-dir` is where `add_tool` leaves a mark
so a restarted server keeps the tools it was given.
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


def build(name: str, state_dir: Path | None):
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

    @server.resource("note://readme", name="readme", description="The read-me note.",
                     mime_type="text/plain")
    def readme() -> str:
        return "the note's text"

    @server.prompt(description="Ask for a review of a topic.")
    def review(topic: str) -> str:
        return f"Please review {topic} carefully."

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
    args = parser.parse_args()
    if args.pid_file:  # every start is recorded, a crashing one's too
        with args.pid_file.open("a") as f:
            f.write(f"{os.getpid()}\n")
    if args.crash:
        print("the server crashed on purpose", file=sys.stderr)
        sys.exit(3)
    server = build(args.name, args.state_dir)
    if args.http or args.sse:
        serve_http(server, args.http or args.sse, sse=args.sse is not None)
    else:
        server.run()


if __name__ == "__main__":
    main()
