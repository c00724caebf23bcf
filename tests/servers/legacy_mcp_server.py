"""A hand-written MCP server of the 2025 protocol era, as servers built on other SDKs
are: it answers `initialize` (not `server/discover`), and its tool list carries one
tool whose input schema is not an object, beside two good ones. Over stdio.

It stands for a misbehaving server in the tests; cc itself speaks through the SDK.
"""

import json
import sys

TOOLS = [
    {"name": "echo", "description": "Echo the text.",
     "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}},
                     "required": ["text"]}},
    {"name": "broken", "description": "A bad schema.", "inputSchema": {"type": "string"}},
    {"name": "ping_tool", "description": "Answers pong.",
     "inputSchema": {"type": "object", "properties": {}}},
]


def answer(request: dict) -> dict | None:
    method, params = request.get("method"), request.get("params") or {}
    if "id" not in request:
        return None  # a notification
    if method == "initialize":
        result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                  "serverInfo": {"name": "legacy", "version": "0.1"}}
    elif method == "tools/list":
        result = {"tools": TOOLS}
    elif method == "tools/call":
        args = params.get("arguments") or {}
        text = args.get("text", "pong").upper() if params.get("name") == "echo" else "pong"
        result = {"content": [{"type": "text", "text": text}], "isError": False}
    elif method == "ping":
        result = {}
    else:
        return {"jsonrpc": "2.0", "id": request["id"],
                "error": {"code": -32601, "message": f"Method not found: {method}"}}
    return {"jsonrpc": "2.0", "id": request["id"], "result": result}


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        reply = answer(json.loads(line))
        if reply is not None:
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
