"""Typed messages: the view and event JSON of both games as pydantic models, whose JSON
Schema generates the client's TypeScript types (``docs/views.md``).

>>> from paiju.protocol.views import MazhanView, MadiaoView
>>> MazhanView.model_config["extra"], MadiaoView.model_config["extra"]
('forbid', 'forbid')
"""
