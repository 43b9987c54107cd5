"""What one interaction came to (types.ts' InteractionResult)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional


@dataclass
class InteractionResult:
    """What one interaction came to, once the app gave its final answer (a deferred reply
    filled in included) and nothing more came for the quiet period. Messages are Discord
    message objects (dicts) as the user sees them."""

    #: Acknowledged, and nothing went wrong: no refusal, no failure, no deferred reply left unfilled.
    ok: bool = False
    #: The app answered the interaction in time (INTERACTION_SUCCESS).
    acknowledged: bool = False
    #: The app deferred (callback type 5, or 6 for a component's message).
    deferred: bool = False
    #: The response is only visible to the user (EPHEMERAL).
    ephemeral: bool = False
    #: The original response after its last edit, or a component's message as updated (callback 6 or 7).
    response: Optional[Dict[str, Any]] = None
    #: Follow-up messages, oldest first, each in its last version.
    followups: List[Dict[str, Any]] = field(default_factory=list)
    #: The modal the app opened (callback 9), for `submit_modal`: id (the interaction that opened it), custom_id, title, components.
    modal: Optional[Dict[str, Any]] = None
    #: The choices an autocomplete answered (callback 8).
    choices: Optional[List[Dict[str, Any]]] = None
    #: Why the interaction failed or was refused, in words with the codes; None when ok.
    error: Optional[str] = None
    #: The interaction as the app received it (no token); None when ACS refused it.
    interaction: Optional[Dict[str, Any]] = None
