"""The web layer: routers for the JSON API, the WebSocket endpoint and the HTML pages."""
