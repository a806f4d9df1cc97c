"""The server's routes: the HTTP API (:mod:`.api`) and the WebSocket (:mod:`.ws`)."""
