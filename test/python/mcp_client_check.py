"""chatgraph's MCP server as the official Python MCP SDK sees it: a second, independent client.

Lists the tools, calls every tool with arguments from CALLS (a listed tool with no entry fails
the run, so a new tool must be added here), checks each structuredContent against the tool's
outputSchema with jsonschema and each text against the result budget, reads the resources, and
asks for one that does not exist (-32002).

    python mcp_client_check.py stdio NODE CLI DATA_DIR
    python mcp_client_check.py http URL

Prints one line per check and ends with "python-mcp checks: ok=N failed=N"; exits 1 on a failure.
The data folder is the one test/support/mcp-fixtures.ts writes.
"""

import asyncio
import json
import sys
from typing import Any, Callable

import anyio
from jsonschema import Draft7Validator
from mcp import ClientSession, McpError, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.message import SessionMessage
from mcp.types import JSONRPCResponse

# The server's default answer budget (text and structured content together, as sent), and what
# the JSON-RPC envelope around an answer may add to it.
BUDGET = 24 * 1024
ENVELOPE = 256
# tools/list must leave an agent's context for its work: under 12 KB as sent.
TOOLS_LIST_MAX = 12 * 1024
INSTRUCTIONS_MAX = 1200

Args = dict[str, Any] | Callable[[dict[str, Any]], dict[str, Any]]

# Each tool's calls, in order; a call may be built from earlier results (by tool name), so
# remembering comes before forgetting what was remembered.
CALLS: dict[str, list[Args]] = {
    "search_conversations": [
        {"query": "sourdough", "source": "ChatGPT", "mode": "keyword", "limit": 100},
        {"query": "sourdough", "role": "user", "since": "2020-01-01", "offset": 5},
        {"query": "sourdough", "mode": "keyword", "limit": 1},
    ],
    "get_conversation": [
        {"id": "conv-short"},
        {"id": "conv-long", "limit": 200},
        {"id": "conv-huge", "offset": 1, "branch": "all"},
    ],
    "list_conversations": [
        {"source": "claude", "limit": 5, "sort": "oldest"},
        {"source": "chatgpt", "title": "short"},
    ],
    "get_message_context": [
        {"message_id": "conv-short-m1", "before": 1, "after": 0},
        lambda seen: {"message_id": seen["get_conversation"]["messages"][0]["id"]},
    ],
    "run_cypher": [
        {"query": "MATCH (m:Message) RETURN m.id, m.content"},
        {"query": "MATCH (c:Conversation {conversation_id: $id}) RETURN c.name AS name", "params": {"id": "conv-short"}},
    ],
    "stats": [{}],
    # Token usage (issue 45): the samples' Claude Code sessions carry counts; a day's rows too.
    "usage": [{}, {"by": "day", "breakdown": True, "source": "claude-code", "since": "2020-01-01"}],
    # The memory tools (issue 15 §2), called when the server lists them.
    "remember": [
        {"content": "The user feeds the sourdough starter twice a day", "type": "fact", "tags": ["baking"]}
    ],
    "list_memories": [{"query": "sourdough"}],
    "recent_activity": [{"since": "2020-01-01"}],
    "forget": [lambda seen: {"id": seen["remember"]["id"]}],
}

ORDER = list(CALLS)

# What some results must say, beyond matching their schema: (tool, call number) -> test, what.
EXPECT: dict[tuple[str, int], tuple[Callable[[dict[str, Any]], bool], str]] = {
    ("search_conversations", 0): (lambda r: len(r["conversations"]) > 0, "a product name as source finds conversations"),
    ("get_conversation", 0): (lambda r: r["matchedId"] == "platform", "says it got the platform's id"),
    ("get_conversation", 1): (lambda r: r["truncated"] and r["nextOffset"] is not None, "offers the next page"),
    ("search_conversations", 2): (
        lambda r: r["conversations"][0].get("url") == "https://chatgpt.com/c/conv-long",
        "gives where the conversation lives on its platform",
    ),
    ("list_conversations", 0): (
        lambda r: r["total"] > 0 and all(c["url"].startswith("https://claude.ai/chat/") for c in r["conversations"]),
        '"claude" lists Claude conversations, each with its claude.ai address',
    ),
    ("list_conversations", 1): (
        lambda r: [c.get("url") for c in r["conversations"]] == ["https://chatgpt.com/c/conv-short"],
        "gives where the conversation lives on its platform",
    ),
    ("get_message_context", 0): (lambda r: r["matchedId"] == "platform", "takes the platform's message id"),
    ("run_cypher", 0): (lambda r: r["truncated"] and r["shown"] < r["rowCount"], "cuts every message to the budget"),
    ("remember", 0): (lambda r: bool(r.get("id")), "gives the memory's id"),
}

# What some results' text must say: (tool, call number) -> the words, what.
SAYS: dict[tuple[str, int], tuple[str, str]] = {
    ("search_conversations", 2): ("on the platform <https://chatgpt.com/c/conv-long>", "text gives the platform's address"),
    ("list_conversations", 1): ("on the platform <https://chatgpt.com/c/conv-short>", "text gives the platform's address"),
}


class Tap:
    """The size of each JSON-RPC response as the server sent it (re-serialised compactly, as
    JSON.stringify wrote it), read between the transport and the session."""

    def __init__(self) -> None:
        self.last = 0

    async def relay(self, source: Any, sink: Any) -> None:
        async with sink:
            async for message in source:
                if isinstance(message, SessionMessage) and isinstance(message.message.root, JSONRPCResponse):
                    response = message.message.root
                    sent = {"result": response.result, "jsonrpc": "2.0", "id": response.id}
                    self.last = len(json.dumps(sent, ensure_ascii=False, separators=(",", ":")).encode())
                await sink.send(message)


class Checks:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def check(self, ok: bool, what: str) -> bool:
        print(f"{'ok  ' if ok else 'FAIL'} {what}", flush=True)
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        return ok


async def exercise(session: ClientSession, checks: Checks, tap: Tap) -> None:
    init = await session.initialize()
    caps = init.capabilities
    checks.check(caps.tools is not None and not caps.tools.listChanged, "tools advertise no listChanged")
    checks.check(caps.resources is not None and not caps.resources.listChanged, "resources advertise no listChanged")
    instructions = init.instructions or ""
    print(f"size instructions {len(instructions)} characters", flush=True)
    checks.check(0 < len(instructions) <= INSTRUCTIONS_MAX, f"instructions within {INSTRUCTIONS_MAX} characters ({len(instructions)})")
    for said in ["search_conversations", "get_conversation", "run_cypher", "conversations"]:
        checks.check(said in instructions, f"instructions name {said}")

    listed = await session.list_tools()
    print(f"size tools/list {tap.last} bytes", flush=True)
    checks.check(tap.last < TOOLS_LIST_MAX, f"tools/list under {TOOLS_LIST_MAX} bytes as sent ({tap.last})")
    tools = {tool.name: tool for tool in listed.tools}
    missing = sorted(set(tools) - set(CALLS))
    checks.check(not missing, f"every listed tool has calls in the table (missing: {missing})")
    seen: dict[str, dict[str, Any]] = {}
    for name in sorted(tools, key=lambda n: ORDER.index(n) if n in ORDER else len(ORDER)):
        tool = tools[name]
        schema = tool.outputSchema
        checks.check(schema is not None, f"{name} declares an outputSchema")
        for prop, spec in (tool.inputSchema.get("properties") or {}).items():
            checks.check(bool(spec.get("description")), f"{name}.{prop} has a description")
        for number, call in enumerate(CALLS.get(name, [])):
            args = call(seen) if callable(call) else call
            what = f"{name} {json.dumps(args)[:120]}"
            try:
                result = await session.call_tool(name, args)
            except Exception as error:  # the SDK raises when structuredContent breaks the schema
                checks.check(False, f"{what}: {error}")
                continue
            text = "".join(part.text for part in result.content if part.type == "text")
            if not checks.check(not result.isError, f"{what} succeeds ({text[:200] if result.isError else 'ok'})"):
                continue
            content = result.structuredContent or {}
            errors = [e.message for e in Draft7Validator(schema or {}).iter_errors(content)]
            checks.check(not errors, f"{what} matches its outputSchema {errors[:3]}")
            print(f"size answer {what} {tap.last} bytes", flush=True)
            checks.check(tap.last <= BUDGET + ENVELOPE, f"{what} answer within {BUDGET} bytes as sent ({tap.last})")
            checks.check("truncated" in content, f"{what} says whether it was truncated")
            if content.get("truncated"):
                checks.check("truncated" in text.lower(), f"{what} text says it was truncated")
            if (name, number) in EXPECT:
                test, said = EXPECT[(name, number)]
                checks.check(test(content), f"{what} {said}")
            if (name, number) in SAYS:
                words, said = SAYS[(name, number)]
                checks.check(words in text, f"{what} {said}")
            seen[name] = content

    resources = (await session.list_resources()).resources
    checks.check(any(str(r.uri) == "chatgraph://schema" for r in resources), "lists the schema resource")
    templates = (await session.list_resource_templates()).resourceTemplates
    checks.check(any(t.uriTemplate == "chatgraph://conversation/{id}" for t in templates), "lists the conversation template")
    read = await session.read_resource("chatgraph://conversation/conv-short")
    checks.check("# Short chat" in read.contents[0].text, "reads a conversation resource")
    try:
        await session.read_resource("chatgraph://conversation/no-such-conversation")
        checks.check(False, "an unknown resource is an error")
    except McpError as error:
        checks.check(error.error.code == -32002, f"an unknown resource is -32002 (got {error.error.code})")


async def tapped(read: Any, write: Any, checks: Checks) -> None:
    tap = Tap()
    sink, source = anyio.create_memory_object_stream[Any](0)
    async with anyio.create_task_group() as group:
        group.start_soon(tap.relay, read, sink)
        async with ClientSession(source, write) as session:
            await exercise(session, checks, tap)
        group.cancel_scope.cancel()


async def main() -> int:
    checks = Checks()
    mode = sys.argv[1]
    if mode == "stdio":
        node, cli, data = sys.argv[2:5]
        params = StdioServerParameters(command=node, args=[cli, "mcp", "--data-dir", data])
        async with stdio_client(params) as (read, write):
            await tapped(read, write, checks)
    elif mode == "http":
        async with streamable_http_client(sys.argv[2]) as (read, write, _):
            await tapped(read, write, checks)
    else:
        raise SystemExit(f"unknown mode {mode}: stdio or http")
    print(f"python-mcp checks: ok={checks.passed} failed={checks.failed}", flush=True)
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
