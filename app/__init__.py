"""Labyrinth game server: rules engines, rooms over WebSockets, an append-only action log."""
