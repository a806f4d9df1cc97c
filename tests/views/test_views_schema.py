"""Every view and event of random hands of both games validates against the pydantic models
of each game's ``schema`` module (``paiju/<game>/schema.py``, registered with
``paiju/views.py``), and the models are exact: serialising a validated view gives back the
same JSON."""

from __future__ import annotations

import json
import random
from typing import Any

from pydantic import TypeAdapter

from paiju.madiao import rules as md
from paiju.madiao.schema import MadiaoEvent, MadiaoView
from paiju.madiao.seats import SEATS as MD_SEATS
from paiju.madiao.views import observe as md_observe
from paiju.mazhan import rules as mz
from paiju.mazhan.schema import MazhanEvent, MazhanView
from paiju.mazhan.seats import SEATS as MZ_SEATS
from paiju.mazhan.views import observe as mz_observe
from paiju.views import json_schema, view_type

MZ_EVENT: TypeAdapter[Any] = TypeAdapter(MazhanEvent)
MD_EVENT: TypeAdapter[Any] = TypeAdapter(MadiaoEvent)
VIEW: TypeAdapter[Any] = TypeAdapter(view_type())


def exact(model: Any, data: dict[str, Any]) -> None:
    """``data`` validates and serialises back to itself (no field missing, none extra)."""
    parsed = model.model_validate(data) if hasattr(model, "model_validate") else None
    if parsed is None:
        parsed = model.validate_python(data)
        back = model.dump_python(parsed, by_alias=True, mode="json")
    else:
        back = parsed.model_dump(by_alias=True, mode="json")
    assert back == data


def test_every_mazhan_view_and_event_of_random_hands_validates() -> None:
    kinds: set[str] = set()
    phases: set[str] = set()
    for seed in range(100):
        rng = random.Random(seed)
        s, events = mz.deal(mz.Ruleset(), seed)
        while True:
            for seat in MZ_SEATS:
                view = mz_observe(s, seat).to_json()
                exact(MazhanView, view)
                assert VIEW.validate_python(view).game == "mazhan"
                phases.add(view["phase"])
                for e in mz.events_json(events, seat):
                    exact(MZ_EVENT, e)
                    kinds.add(e["kind"])
            if s.phase is mz.Phase.OVER:
                break
            movers = mz.acting(s)
            legal = mz.legal_actions_for(s, movers[rng.randrange(len(movers))])
            s, events = mz.apply(s, legal[rng.randrange(len(legal))])
    assert phases == {"act", "claim", "over"} | ({"rob"} & phases)
    assert {"deal", "dealt", "indicator", "draw", "discard", "decision", "hu"} <= kinds


def test_every_madiao_view_and_event_of_random_hands_validates() -> None:
    for seed in range(200):
        rng = random.Random(seed)
        s, events = md.deal(md.Ruleset(), seed)
        while True:
            for seat in MD_SEATS:
                view = md_observe(s, seat).to_json()
                exact(MadiaoView, view)
                assert VIEW.validate_python(view).game == "madiao"
                for e in md.events_json(events, seat):
                    exact(MD_EVENT, e)
            if s.phase is md.Phase.OVER:
                break
            legal = md.legal_actions_for(s, md.acting(s)[0])
            s, events = md.apply(s, legal[rng.randrange(len(legal))])


def test_the_models_forbid_unknown_fields() -> None:
    view = mz_observe(mz.new_hand(mz.Ruleset(), 1), MZ_SEATS[0]).to_json()
    view["acting"] = ["E"]
    try:
        MazhanView.model_validate(view)
    except ValueError as err:
        assert "acting" in str(err)
    else:
        raise AssertionError("an unknown field was accepted")


def test_the_json_schema_describes_every_field() -> None:
    schema = json_schema()
    text = json.dumps(schema)
    assert '"additionalProperties": false' in text
    defs = schema["$defs"]
    view = defs["MazhanView"]["properties"]
    assert "description" in view["waits"] and "聽牌" in view["waits"]["description"]
    assert "from" in defs["MazhanMeld"]["properties"]
