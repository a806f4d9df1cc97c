"""The WebSocket protocol, typed once: every message a client sends and every frame the server
sends is a pydantic model here. Client messages are parsed with :data:`CLIENT` (a
discriminated union on ``type``); server frames are built by the table machine as plain JSON
and checked against :data:`SERVER` in the tests. :func:`json_schema` writes both as one JSON
Schema (``docs/protocol.schema.json``), which generates the client's TypeScript types and the
message tables of ``docs/protocol.md``.

>>> parse_client(b'{"type": "action", "action": "S peng", "version": 44}').version
44
>>> parse_client(b'{"type": "dance"}')
Traceback (most recent call last):
...
paiju.server.errors.ServerError: bad message: type: unknown type (expected 'join', ...)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic.json_schema import SkipJsonSchema

from paiju.server.errors import ServerError
from paiju.views import event_type, public_view_type, typed_games, view_type

if TYPE_CHECKING:
    View: TypeAlias = Any
    Event: TypeAlias = Any
    PublicView: TypeAlias = Any
else:  # the registered games' typed views, told apart by their ``game``
    View = view_type()
    Event = event_type()
    PublicView = public_view_type()

__all__ = ["CLIENT", "SERVER", "ClientMessage", "ServerFrame", "json_schema", "parse_client"]

Seat = Literal["E", "S", "W", "N"]
Level = Literal["easy", "normal", "hard"]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


# --- client → server ---------------------------------------------------------------------


class Join(_Message):
    """Sit at a table of a room: one waiting for players, else a new one; or open a table
    for friends (``private``), or sit at a friend's (``code``). A player who is seated
    already is sent back to their seat."""

    type: Literal["join"]
    room: str = Field(
        "", max_length=40, description="the room's name, as /api/rooms lists it (not with code)"
    )
    alone: bool = Field(
        False, description="a new table of one's own: bots take the other seats at once"
    )
    private: bool = Field(
        False,
        description="a new table for friends: it has a code to share, nobody else is seated "
        "there, and bots sit only when a player there asks (fill)",
    )
    code: str | None = Field(
        None,
        pattern=r"^[A-Za-z0-9]{8}$",
        description="sit at the private table with this code (eight letters and digits, "
        "either case; no room or level with it)",
    )
    level: Level | None = Field(
        None,
        description="the bots' level at a table of one's own or for friends (default: the room's)",
    )

    @model_validator(mode="after")
    def _one_kind(self) -> Join:
        if self.alone + self.private + (self.code is not None) > 1:
            raise ValueError("choose one of alone, private and code")
        if self.code is not None and (self.room or self.level is not None):
            raise ValueError("a code names the table: leave out room and level")
        if self.code is None and not self.room:
            raise ValueError("room: a join names a room (or the code of a friend's table)")
        return self


class Fill(_Message):
    """At a private table waiting for players: bots take the empty seats now."""

    type: Literal["fill"]


class Ready(_Message):
    """Confirm the next hand (every hand waits for all four confirmations; rules §10)."""

    type: Literal["ready"]


class SettlementShown(_Message):
    """The page has shown the settlement whole: the hands, the 開沖 reveal and the win's
    presentation are done (or the player skipped them). Send it once, as soon as that is so:
    the ready clock starts only then (at the latest ``reading_seconds`` after the settlement
    reached the page). Sent again, or with no settlement waiting, it changes nothing."""

    type: Literal["settlement_shown"]


class Watch(_Message):
    """Watch a table without a seat: the private table of ``code``, or the table where the
    player ``name`` sits (a table of a room; a private table only by its code). Public
    information only, one public change behind (``watch_view``). Not while seated."""

    type: Literal["watch"]
    code: str | None = Field(
        None,
        pattern=r"^[A-Za-z0-9]{8}$",
        description="a private table's code (eight letters and digits, either case)",
    )
    name: str | None = Field(
        None,
        min_length=1,
        max_length=40,
        description="a player's name: watch the table where they sit",
    )

    @model_validator(mode="after")
    def _one_way(self) -> Watch:
        if (self.code is None) == (self.name is None):
            raise ValueError("watch names a table by code or a player by name (one of them)")
        return self


class Unwatch(_Message):
    """Stop watching (answered ``unwatched``)."""

    type: Literal["unwatch"]


class Act(_Message):
    """Play an action of the seat's ``legal`` list, naming the version of the view it was
    chosen from (exactly the view's ``version``)."""

    type: Literal["action"]
    action: str = Field(max_length=40, description="an action string from the view's legal list")
    version: int = Field(ge=0, le=1_000_000, description="the version of the view")


class Tuoguan(_Message):
    """Switch auto-play (托管) on or off."""

    type: Literal["tuoguan"]
    on: bool


class Hint(_Message):
    """Ask what the normal level's bot would play at the view of ``version`` (answered with
    a ``hint`` frame; only to a player alone at a table of bots: ``hints_off`` elsewhere)."""

    type: Literal["hint"]
    version: int = Field(ge=0, le=1_000_000, description="the version of the view")


class Leave(_Message):
    """Leave the table: free before a hand is live, an escape during one (only with
    ``escape``: a leave sent before the sender knew the hand had begun is refused,
    ``escape_unconfirmed``, and costs nothing)."""

    type: Literal["leave"]
    escape: bool = Field(
        default=False,
        title="LeaveAsEscape",  # not "Escape": the escape frame's type has that name
        description="true: leave a live hand as an escape, its penalty paid (the player "
        "confirmed it); without it a leave during a hand is refused (escape_unconfirmed)",
    )


class Ping(_Message):
    """Ask for a ``pong``."""

    type: Literal["ping"]


ClientMessage = Annotated[
    Join | Fill | Ready | SettlementShown | Act | Tuoguan | Hint | Leave | Watch | Unwatch | Ping,
    Field(discriminator="type"),
]
#: Parses a client message from JSON bytes or text.
CLIENT: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


def parse_client(raw: bytes | str) -> ClientMessage:
    """A client message, or ``ServerError("bad_message")`` naming the first problem (never
    echoing more than a short piece of the input).

    >>> parse_client("[]")
    Traceback (most recent call last):
    ...
    paiju.server.errors.ServerError: bad message: Input should be an object
    """
    try:
        return CLIENT.validate_json(raw)
    except ValidationError as err:
        first = err.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(x) for x in first["loc"] if not isinstance(x, int))
        where = where.split(".", 1)[-1] if where.startswith(("join.", "action.")) else where
        msg = first["msg"]
        if first["type"] == "union_tag_invalid":  # its text quotes the unknown type
            where, msg = "type", f"unknown type (expected {first['ctx']['expected_tags']})"
        if first["type"] == "value_error":  # a message's own check: its text says it all
            where, msg = "", msg.removeprefix("Value error, ")
        text = f"{where}: {msg}" if where else msg
        raise ServerError("bad_message", f"bad message: {text[:200]}") from None


# --- server → client ---------------------------------------------------------------------


class SeatPublic(_Message):
    """A seat as everyone at the table sees it."""

    name: str
    bot: bool
    level: Level | None = Field(None, description="a bot's level")
    ready: bool = Field(description="confirmed the next hand")
    tuoguan: bool
    connected: bool
    points: int | None = Field(None, description="a person's balance")


class Hello(_Message):
    """Sent first on every connection."""

    type: Literal["hello"]
    name: str
    balance: int
    seated: bool = Field(
        False,
        description="whether the account holds a seat at a table now: a client that thought "
        "it sat somewhere and reads false has lost that table (it closed, or they were "
        "unseated while away) and goes back to the lobby",
    )


#: a game's name, as the game registered it (paiju.games.names(): the rooms' games)
GameName = Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[a-z][a-z0-9_-]*$")]


class Seated(_Message):
    """The player holds a seat (after ``join`` or on reconnecting)."""

    type: Literal["seated"]
    table: int
    room: str
    game: GameName
    seat: Seat


class _Seating(_Message):
    """A table's seating: what its players and its spectators are shown alike."""

    type: str  # each frame's own literal (declared first: the fields keep their order)
    table: int
    room: str
    game: GameName
    live: bool
    hand_no: int = Field(description="hands started at this table")
    seats: dict[Seat, SeatPublic | None]


class TableFrame(_Seating):
    """The table's seating, whenever it changes."""

    type: Literal["table"]
    ready_seconds: float | None = Field(
        None, description="time left to confirm the next hand, for this player"
    )
    code: str | None = Field(
        None, description="a private table's code, for its players to share with friends"
    )
    watchers: int = Field(0, description="how many spectators watch the table")


class HandStart(_Message):
    """A hand went live: the stake (底注) and the table fee (台費) already charged."""

    type: Literal["hand_start"]
    hand: int
    stake: int
    fee: int
    seat: Seat
    room: str
    game: GameName
    dealer: Seat = Field(description="the seat that deals this hand (its game's dealer or banker)")
    balance: int | None = Field(
        None, description="this player's balance, the table fee already taken"
    )


class Clock(_Message):
    """The clock running for a decision (only the seat's own in a claim window)."""

    seat: Seat | None = Field(description="whose turn it is; null: this seat's own claim prompt")
    seconds: float = Field(description="the clock's full length")
    left: float = Field(
        description="seconds left when the frame was sent (all of them on the frame that "
        "offers a turn: its clock starts when it reaches the player)"
    )


class OtherGameView(BaseModel):
    """The view of a game registered without typed views here: its own JSON, which a client
    that does not know the game shows as such (not in the schema: no client types)."""

    model_config = ConfigDict(extra="allow")

    game: str

    @field_validator("game")
    @classmethod
    def _untyped(cls, game: str) -> str:
        if game in typed_games():
            raise ValueError("this game's views are typed: the view does not match its model")
        return game


class ViewFrame(_Message):
    """The seat's view after a change (docs/views.md), the events that led to it, the clock."""

    type: Literal["view"]
    table: int
    hand: int
    version: int
    view: View | SkipJsonSchema[OtherGameView] = Field(
        description="the seat's view (docs/views.md)"
    )
    events: list[Event | SkipJsonSchema[dict[str, Any]]] = Field(
        description="what happened since the last view, as this seat may see it"
    )
    clock: Clock | None
    stake: int
    your_action: str | None = Field(description="this seat's action that made this version")
    timeouts: int = Field(
        0,
        description="this player's turns timed out in a row (the 4th is an escape; any action "
        "resets it)",
    )
    catch_up: bool = Field(
        False,
        description="true on a connection's first view of a live hand: `events` is then the "
        "whole hand so far, as this seat may see it (the move log is rebuilt from them)",
    )

    @model_validator(mode="after")
    def _typed_events(self) -> ViewFrame:
        # a typed game's events are typed too: a plain object among them did not validate
        if not isinstance(self.view, OtherGameView) and any(
            isinstance(e, dict) for e in self.events
        ):
            raise ValueError("an event of this game does not match its model")
        return self


class Move(_Message):
    """Points moved between two accounts (the ledger's lines)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    from_: str = Field(alias="from", description="a player's name, or 'house'")
    to: str
    amount: int
    reason: Literal["fee", "hand", "escape", "refund"]


class Settlement(_Message):
    """The hand is over: its result in short (``result``: who won, how, the value, each seat's
    net), the points moved, the balance. The hands revealed, each seat's score and the
    payments are in the final ``view``'s ``result``, sent just before it."""

    type: Literal["settlement"]
    hand: int
    stake: int
    fee: int
    result: dict[str, Any]
    moves: list[Move]
    balance: int | None
    balance_change: int | None = Field(description="this hand's change, the fee included")
    ready_seconds: float = Field(
        description="the ready clock's length: it starts when the page says the settlement "
        "is shown whole (settlement_shown)"
    )
    reading_seconds: float = Field(
        description="the longest the ready clock waits for settlement_shown once this frame "
        "has reached the page; then it starts anyway"
    )


class Escape(_Message):
    """A player escaped; the hand is aborted."""

    type: Literal["escape"]
    hand: int
    seat: Seat
    name: str
    why: Literal["timeouts", "disconnected", "left"]
    stake: int
    penalty: int
    moves: list[Move]
    balance: int | None = Field(None, description="this player's balance after the penalty")


class Unseated(_Message):
    """This player no longer holds a seat."""

    type: Literal["unseated"]
    why: Literal["left", "escape", "too_few_points", "not_ready", "table_closed", "void"]


class Paused(_Message):
    """The hand waits for the house, not for a player: ``storage``, the table's writes are
    not durable yet (the database is down or stalls); ``peers``, this server cannot reach
    the server that plays the table (the cluster's Redis is away). No clock runs for the
    player meanwhile; the hand resumes by itself (``resumed``, then the current view)."""

    type: Literal["paused"]
    why: Literal["storage", "peers"]


class Draining(_Message):
    """This server is restarting (an operator's deploy): a live hand plays on to its end
    (at most ``seconds``), no new hand starts here, and a join is refused (``draining``).
    Once the hand is over, or the socket closes, connect again: the load balancer sends the
    new socket to a server that stays, and a hand left unfinished goes on there."""

    type: Literal["draining"]
    seconds: float = Field(description="the most this server waits for live hands to end")


class Resumed(_Message):
    """The table goes on after a pause."""

    type: Literal["resumed"]


class HintFrame(_Message):
    """What the normal level's bot would play at this seat's view of ``version`` (the answer
    to ``hint``)."""

    type: Literal["hint"]
    version: int
    action: str = Field(description="an action of the view's legal list")


class Watching(_Seating):
    """This account watches a table: the answer to ``watch``, and the table's seating again
    whenever it changes (as its players see it, without their ready clocks or a private
    table's code); ``watch_view`` frames follow."""

    type: Literal["watching"]
    watchers: int = Field(description="how many spectators watch the table")


class WatchView(_Message):
    """The table as a spectator sees it: what every seat sees of the others, one public
    change behind (the deal at once; the end of the hand at once, with its result)."""

    type: Literal["watch_view"]
    table: int
    hand: int
    view: PublicView


class Unwatched(_Message):
    """This account no longer watches: it asked (``left``), or the table closed."""

    type: Literal["unwatched"]
    why: Literal["left", "table_closed"]


class Pong(_Message):
    """The answer to ``ping``."""

    type: Literal["pong"]


class Error(_Message):
    """A request changed nothing."""

    type: Literal["error"]
    code: str
    message: str


ServerFrame = Annotated[
    Hello
    | Seated
    | TableFrame
    | HandStart
    | ViewFrame
    | Settlement
    | Escape
    | Unseated
    | Paused
    | Draining
    | Resumed
    | HintFrame
    | Watching
    | WatchView
    | Unwatched
    | Pong
    | Error,
    Field(discriminator="type"),
]
#: Validates a server frame (tests check every frame they receive).
SERVER: TypeAdapter[ServerFrame] = TypeAdapter(ServerFrame)


def json_schema() -> dict[str, Any]:
    """Both directions as one JSON Schema document.

    >>> sorted(json_schema()["properties"])
    ['client', 'server']
    """
    client = CLIENT.json_schema(ref_template="#/$defs/{model}")
    server = SERVER.json_schema(ref_template="#/$defs/{model}", mode="serialization")
    defs = {**client.pop("$defs", {}), **server.pop("$defs", {})}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "paiju WebSocket protocol",
        "type": "object",
        "properties": {"client": client, "server": server},
        "$defs": defs,
    }
