"""The engine's answer to `prompt` hooks (`cc.hooks.prompt_hook.HookModel`): one request
without tools on the agent's connection, on the hook's `model` or the agent's, after the
agent's conversation when the hook judges it (Stop); what it costs is the agent's."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cc.core.query_engine import QueryEngine


class EngineHookModel:
    def __init__(self, engine: QueryEngine) -> None:
        self._engine = engine

    async def __call__(self, *, system: str, prompt: str, model: str | None,
                       conversation: bool = False,
                       schema: dict[str, Any] | None = None) -> str | None:
        from cc.core.client import ModelRequest
        from cc.core.query_loop import output_caps
        from cc.models.catalog import resolve_model
        from cc.models.messages import Message, UserMessage, normalize_messages_for_api
        from cc.prompts.builder import PromptSection

        engine = self._engine
        name = resolve_model(model) if model else engine.model
        asked = UserMessage.text(prompt)
        messages: list[Message] = [*engine.messages, asked] if conversation else [asked]
        request = ModelRequest(
            model=name, max_tokens=output_caps(name, engine.config.max_output_tokens)[0],
            system=[PromptSection("hook", system, cacheable=False)],
            messages=normalize_messages_for_api(messages),
            output_format={"type": "json_schema", "schema": schema} if schema else None,
        )
        answer = await engine.ask(request)
        return None if answer is None else answer.text
